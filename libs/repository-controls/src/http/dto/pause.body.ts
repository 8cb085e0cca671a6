import { IsStorableString } from '@switchyard/http';
import { IsString } from 'class-validator';
import { PAUSE_REASON_MAX_CODE_POINTS } from '../../domain/merge-queue-pause';

/** PUT merge-queue/pause and the legacy PUT queue/pause. */
export class PauseBody {
  @IsString()
  @IsStorableString(PAUSE_REASON_MAX_CODE_POINTS)
  reason!: string;
}

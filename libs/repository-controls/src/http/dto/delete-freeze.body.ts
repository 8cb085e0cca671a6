import { IsStorableString } from '@switchyard/http';
import { IsOptional, IsString } from 'class-validator';
import { FREEZE_REASON_MAX_CODE_POINTS } from '../../domain/freeze/freeze-rules';

/**
 * DELETE scheduled_freeze/{id} and POST …/delete. The spec requires delete_reason, but the CLI sends
 * `{}` when the user gave none (client-contract §1.5): it is accepted for a freeze not in force and
 * refused for one in force, which only the domain can tell.
 */
export class DeleteFreezeBody {
  @IsOptional()
  @IsString()
  @IsStorableString(FREEZE_REASON_MAX_CODE_POINTS)
  delete_reason?: string | null;
}

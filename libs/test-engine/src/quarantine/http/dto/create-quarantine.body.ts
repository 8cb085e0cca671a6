import { IsStorableString } from '@switchyard/http';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { QUARANTINE_TEXT_MAX_CODE_POINTS } from '../../domain/test-quarantine';

/** POST quarantines. An omitted or null branch means every branch. */
export class CreateQuarantineBody {
  @IsString()
  @IsStorableString(QUARANTINE_TEXT_MAX_CODE_POINTS)
  test_name!: string;

  @IsString()
  @IsStorableString(QUARANTINE_TEXT_MAX_CODE_POINTS)
  reason!: string;

  @IsOptional()
  @IsString()
  @IsStorableString(QUARANTINE_TEXT_MAX_CODE_POINTS)
  branch?: string | null;

  @IsOptional()
  @IsBoolean()
  unquarantine_when_healthy?: boolean | null;
}

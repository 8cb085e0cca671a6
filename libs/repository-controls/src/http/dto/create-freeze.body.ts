import { IsIanaTimeZone, IsNaiveDateTime, IsStorableString } from '@switchyard/http';
import { IsOptional, IsString, ValidateIf } from 'class-validator';
import type { Condition } from '../../domain/conditions/condition';
import { FREEZE_REASON_MAX_CODE_POINTS } from '../../domain/freeze/freeze-rules';
import { IsConditionList } from './is-condition-list';

/** POST scheduled_freeze. start is required but may be null (= now); end null = indefinite. */
export class CreateFreezeBody {
  @IsString()
  @IsStorableString(FREEZE_REASON_MAX_CODE_POINTS)
  reason!: string;

  // Absent is refused as missing (the spec marks it required); null passes and means "now".
  @ValidateIf((body: CreateFreezeBody) => body.start !== null)
  @IsNaiveDateTime()
  start!: string | null;

  @IsOptional()
  @IsNaiveDateTime()
  end?: string | null;

  @IsString()
  @IsIanaTimeZone()
  timezone!: string;

  @IsOptional()
  @IsConditionList()
  matching_conditions?: Condition[] | null;

  @IsOptional()
  @IsConditionList()
  exclude_conditions?: Condition[] | null;
}

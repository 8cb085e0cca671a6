import { IsIanaTimeZone, IsNaiveDateTime, IsStorableString } from '@switchyard/http';
import { IsOptional, IsString } from 'class-validator';
import type { Condition } from '../../domain/conditions/condition';
import { FREEZE_REASON_MAX_CODE_POINTS } from '../../domain/freeze/freeze-rules';
import type { FreezeChanges } from '../../domain/freeze/scheduled-freeze';
import { IsConditionList } from './is-condition-list';

/**
 * PATCH scheduled_freeze/{id}: only the keys sent change. For start and end, null is a value
 * (now, indefinite); for the other keys null means "leave it", as they cannot be null.
 */
export class ChangeFreezeBody {
  @IsOptional()
  @IsString()
  @IsStorableString(FREEZE_REASON_MAX_CODE_POINTS)
  reason?: string | null;

  @IsOptional()
  @IsNaiveDateTime()
  start?: string | null;

  @IsOptional()
  @IsNaiveDateTime()
  end?: string | null;

  @IsOptional()
  @IsString()
  @IsIanaTimeZone()
  timezone?: string | null;

  @IsOptional()
  @IsConditionList()
  matching_conditions?: Condition[] | null;

  @IsOptional()
  @IsConditionList()
  exclude_conditions?: Condition[] | null;
}

/** Keys absent from the JSON arrive as undefined; JSON cannot send undefined, so null is explicit. */
export function freezeChangesOf(body: ChangeFreezeBody): FreezeChanges {
  const changes: FreezeChanges = {};
  if (body.reason != null) changes.reason = body.reason;
  if (body.start !== undefined) changes.start = body.start;
  if (body.end !== undefined) changes.end = body.end;
  if (body.timezone != null) changes.timezone = body.timezone;
  if (body.matching_conditions != null) changes.matchingConditions = body.matching_conditions;
  if (body.exclude_conditions != null) changes.excludeConditions = body.exclude_conditions;
  return changes;
}

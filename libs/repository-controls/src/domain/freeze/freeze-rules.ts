import {
  checkStorableInstant,
  checkStorableString,
  invalidField,
  isIanaTimeZone,
  parseNaiveDateTime,
  resolveNaive,
  unprocessable,
} from '@switchyard/kernel';
import type { Condition } from '../conditions/condition';
import { formatPath } from '@switchyard/mergify-config/conditions';
import { conditionListProblems } from '../conditions/condition-shape';

/**
 * The freeze invariants the domain guards itself. The HTTP edge checks the same formats first (to
 * answer FastAPI-shaped 422s naming the field); these keep the decider safe for any other caller,
 * and hold everything a freeze records to what every store can represent (kernel's storable rules).
 */
export const FREEZE_REASON_MAX_CODE_POINTS = 10000;

export type FreezeTimeField = 'start' | 'end';

export const checkReason = (field: 'reason' | 'delete_reason', reason: string): string =>
  checkStorableString(field, reason, FREEZE_REASON_MAX_CODE_POINTS);

export function checkTimezone(timezone: string): string {
  if (!isIanaTimeZone(timezone))
    throw invalidField('timezone', `Unknown timezone '${timezone}': use an IANA zone name`);
  return timezone;
}

/** Returns the canonical naive form (seconds precision). */
export function checkNaive(field: FreezeTimeField, text: string): string {
  const parsed = parseNaiveDateTime(text);
  if (parsed.ok) return parsed.value.seconds;
  throw invalidField(
    field,
    parsed.reason === 'has_offset'
      ? `The scheduled freeze \`${field}\` must be a date-time without timezone offset; it is read in the freeze's timezone`
      : `The scheduled freeze \`${field}\` must be an ISO 8601 date-time such as 2099-01-01T00:00:00`,
  );
}

/**
 * The instant a naive time denotes in the freeze's zone, refused when outside the storable range.
 * `field` names what the caller changed: the time itself, or the timezone that moved it.
 */
export const resolveStorable = (field: FreezeTimeField | 'timezone', naive: string, timezone: string): Date =>
  checkStorableInstant(field, resolveNaive(naive, timezone), ` once ${naive} is read in ${timezone}`);

/** Conditions must parse in the condition language; the message names the condition's position. */
export function checkConditions(
  field: 'matching_conditions' | 'exclude_conditions',
  conditions: Condition[],
): Condition[] {
  const [problem] = conditionListProblems(conditions);
  if (problem) throw invalidField(field, `${formatPath([field, ...problem.path])}: ${problem.message}`);
  return conditions;
}

export function checkEndAfterStart(startAt: Date, endAt: Date | null): void {
  if (endAt !== null && endAt.getTime() <= startAt.getTime()) {
    throw unprocessable('The scheduled freeze `end` must be after its `start`');
  }
}

import { unprocessable } from '@switchyard/kernel';
import type { Condition } from '../conditions/condition';
import { conditionListProblems, type LeafSyntax } from '../conditions/condition-shape';
import { codePointLength } from '../text-length';
import { isIanaTimezone, parseNaiveDateTime } from './naive-time';

/**
 * The freeze invariants the domain guards itself. The HTTP edge checks the same formats first (to
 * answer FastAPI-shaped 422s naming the field); these keep the decider safe for any other caller.
 */
export const FREEZE_REASON_MAX_CODE_POINTS = 10000;

export function checkReason(reason: string): string {
  if (codePointLength(reason) > FREEZE_REASON_MAX_CODE_POINTS) {
    throw unprocessable(
      `The scheduled freeze reason must be at most ${FREEZE_REASON_MAX_CODE_POINTS} characters`,
    );
  }
  return reason;
}

export function checkTimezone(timezone: string): string {
  if (!isIanaTimezone(timezone)) throw unprocessable(`Unknown timezone '${timezone}': use an IANA zone name`);
  return timezone;
}

/** Returns the canonical naive form (seconds precision). */
export function checkNaive(field: 'start' | 'end', text: string): string {
  const parsed = parseNaiveDateTime(text);
  if (parsed.ok) return parsed.naive;
  throw unprocessable(
    parsed.problem === 'offset'
      ? `The scheduled freeze \`${field}\` must be a date-time without timezone offset; it is read in the freeze's timezone`
      : `The scheduled freeze \`${field}\` must be an ISO 8601 date-time such as 2099-01-01T00:00:00`,
  );
}

export function checkConditions(
  field: 'matching_conditions' | 'exclude_conditions',
  conditions: Condition[],
  leafSyntax?: LeafSyntax,
): Condition[] {
  const [problem] = conditionListProblems(conditions, leafSyntax);
  if (problem)
    throw unprocessable(`${field}${problem.path.map((step) => `[${step}]`).join('')}: ${problem.message}`);
  return conditions;
}

export function checkEndAfterStart(startAt: Date, endAt: Date | null): void {
  if (endAt !== null && endAt.getTime() <= startAt.getTime()) {
    throw unprocessable('The scheduled freeze `end` must be after its `start`');
  }
}

import type { LeafValue } from '../condition-tree';
import type { Operator } from '../syntax/operators';
import { intervalHolds, nextIntervalChange } from './interval-clock';
import { compareNumbers, EvaluationError, type Judgement, timeless } from './judgement';
import { nextScheduleChange, scheduleHolds } from './schedule-clock';

/**
 * Timestamps against an instant or against "N ago". A relative bound moves with the clock, so the
 * verdict may flip when `now - N` passes the attribute's time: that instant is `nextEvaluationAt`.
 */
export function compareInstants(
  values: readonly (string | null)[],
  operator: Operator,
  value: LeafValue,
  now: Date,
): Judgement {
  const instants = values.filter((item): item is string => item !== null).map((item) => Date.parse(item));
  if (value.kind === 'instant') {
    const bound = Date.parse(value.iso);
    return timeless(instants.some((instant) => compareNumbers(instant, operator, bound)));
  }
  if (value.kind !== 'relative') throw new EvaluationError('expected a timestamp');
  const bound = now.getTime() - value.milliseconds;
  const match = instants.some((instant) => compareNumbers(instant, operator, bound));
  // `attribute < now - N` turns true once now passes attribute + N (and `>=` turns false then).
  const flips = instants
    .map((instant) => instant + value.milliseconds + (operator === '<' || operator === '>=' ? 1 : 0))
    .filter((flip) => flip > now.getTime());
  return { match, nextEvaluationAt: flips.length > 0 ? new Date(Math.min(...flips)) : null };
}

export function judgeClock(operator: Operator, value: LeafValue, now: Date): Judgement {
  if (value.kind === 'schedule') {
    const holds = scheduleHolds(value.schedule, now);
    return {
      match: operator === '=' ? holds : !holds,
      nextEvaluationAt: nextScheduleChange(value.schedule, now),
    };
  }
  if (value.kind === 'interval') {
    const holds = intervalHolds(value.interval, now);
    return {
      match: operator === '=' ? holds : !holds,
      nextEvaluationAt: nextIntervalChange(value.interval, now),
    };
  }
  if (value.kind !== 'instant') throw new EvaluationError('expected a time');
  const bound = Date.parse(value.iso);
  const flip = bound + (operator === '>' || operator === '<=' ? 1 : 0);
  return {
    match: compareNumbers(now.getTime(), operator, bound),
    nextEvaluationAt: flip > now.getTime() ? new Date(flip) : null,
  };
}

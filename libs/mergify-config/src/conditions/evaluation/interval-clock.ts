import { DateTime, type DateTimeUnit } from 'luxon';
import type { DateTimeInterval, WildDateTime } from '../syntax/values/datetime-interval';

/**
 * `current-datetime = A/B` against the clock. Fields left open (`XX`) on both sides repeat the
 * window: each period of the finest open field (every year, month, day…) has its own window, read
 * in the interval's zone. A window whose end falls before its start runs into the next period
 * (`XXXX-12-31T22:00/XXXX-01-01T02:00` spans New Year's night).
 */
type Field = 'year' | 'month' | 'day' | 'hour' | 'minute';
const FIELDS: readonly Field[] = ['year', 'month', 'day', 'hour', 'minute'];
/** How far ahead to look for the next window, per repeating unit. */
const HORIZON: Record<Field, number> = { year: 10, month: 48, day: 400, hour: 48, minute: 120 };

interface Window {
  start: number;
  end: number;
}

const openOnBothSides = (interval: DateTimeInterval): Field[] =>
  FIELDS.filter((field) => interval.start[field] === null && interval.end[field] === null);

function windowFor(interval: DateTimeInterval, cursor: DateTime, unit: Field | null): Window | null {
  const fill = (side: WildDateTime, other: WildDateTime) =>
    DateTime.fromObject(
      {
        year: side.year ?? other.year ?? cursor.year,
        month: side.month ?? other.month ?? cursor.month,
        day: side.day ?? other.day ?? cursor.day,
        hour: side.hour ?? other.hour ?? cursor.hour,
        minute: side.minute ?? other.minute ?? cursor.minute,
        second: side.second,
        millisecond: side.millisecond,
      },
      { zone: interval.timezone },
    );
  const start = fill(interval.start, interval.end);
  let end = fill(interval.end, interval.start);
  if (!start.isValid || !end.isValid) return null;
  end = end.plus({ [interval.endPrecision]: 1 });
  if (end <= start && unit) end = end.plus({ [unit]: 1 });
  return { start: start.toMillis(), end: end.toMillis() };
}

/** The windows from the period before `at` onwards, in order, lazily. */
function* windowsFrom(interval: DateTimeInterval, at: Date, periodsAhead: number): Generator<Window> {
  const open = openOnBothSides(interval);
  const unit = open.length > 0 ? open[open.length - 1]! : null;
  if (!unit) {
    const only = windowFor(interval, DateTime.fromJSDate(at, { zone: interval.timezone }), null);
    if (only) yield only;
    return;
  }
  const local = DateTime.fromJSDate(at, { zone: interval.timezone }).startOf(unit as DateTimeUnit);
  for (let period = -1; period <= periodsAhead; period++) {
    const window = windowFor(interval, local.plus({ [unit]: period }), unit);
    if (window) yield window;
  }
}

export function intervalHolds(interval: DateTimeInterval, at: Date): boolean {
  const instant = at.getTime();
  for (const window of windowsFrom(interval, at, 0))
    if (window.start <= instant && instant < window.end) return true;
  return false;
}

/**
 * The first window edge after `now` where the verdict changes; null when none is in sight. Windows
 * come in order, so the scan stops at the first edge that changes it.
 */
export function nextIntervalChange(interval: DateTimeInterval, now: Date): Date | null {
  const open = openOnBothSides(interval);
  const horizon = open.length > 0 ? HORIZON[open[open.length - 1]!] : 0;
  const current = intervalHolds(interval, now);
  for (const window of windowsFrom(interval, now, horizon)) {
    for (const edge of [window.start, window.end]) {
      if (edge <= now.getTime()) continue;
      const at = new Date(edge);
      if (intervalHolds(interval, at) !== current) return at;
    }
  }
  return null;
}

import { isValidWallClock, wallClockFromMatch } from '@switchyard/kernel';

/**
 * Instants in query parameters and bodies: ISO 8601 / RFC 3339 with a UTC offset (`Z`, `+00:00`,
 * `+0000`), seconds optional, any number of fractional digits (the CLI may send nanoseconds; we keep
 * microseconds, PostgreSQL's precision). Offset-less values and Unix timestamps are refused: the
 * spec says so, and guessing a zone would silently shift a filter window.
 */
export interface ParsedInstant {
  /** Millisecond precision. */
  date: Date;
  /** The same instant in UTC with up to six fractional digits, e.g. `2026-07-20T23:25:11.263987Z`. */
  iso: string;
}

export type InstantRefusal = 'not_a_string' | 'unix_timestamp' | 'missing_offset' | 'invalid';

export type InstantParseResult = { ok: true; value: ParsedInstant } | { ok: false; reason: InstantRefusal };

const DATE_TIME = '(\\d{4})-(\\d{2})-(\\d{2})[Tt ](\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d+))?)?';
const WITH_OFFSET = new RegExp(`^${DATE_TIME}(?:([Zz])|([+-])(\\d{2})(?::?(\\d{2}))?)$`);
const WITHOUT_OFFSET = new RegExp(`^${DATE_TIME}$`);
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const UNIX_TIMESTAMP = /^[+-]?\d+(\.\d+)?$/;

export function parseRfc3339(value: unknown): InstantParseResult {
  if (typeof value !== 'string') return { ok: false, reason: 'not_a_string' };
  const match = WITH_OFFSET.exec(value);
  if (!match) {
    if (UNIX_TIMESTAMP.test(value)) return { ok: false, reason: 'unix_timestamp' };
    if (WITHOUT_OFFSET.test(value) || DATE_ONLY.test(value)) return { ok: false, reason: 'missing_offset' };
    return { ok: false, reason: 'invalid' };
  }
  const wall = wallClockFromMatch(match.slice(1, 8));
  const [zulu, sign, offsetHours, offsetMinutes] = match.slice(8, 12);
  const hours = Number(offsetHours ?? 0);
  const minutes = Number(offsetMinutes ?? 0);
  if (!isValidWallClock(wall) || hours > 23 || minutes > 59) return { ok: false, reason: 'invalid' };

  const offsetMs = zulu ? 0 : (sign === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0..99 to 1900..1999.
  const local = new Date(0);
  local.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  local.setUTCHours(wall.hour, wall.minute, wall.second, Number(wall.fraction.padEnd(3, '0').slice(0, 3)));
  const date = new Date(local.getTime() - offsetMs);
  if (Number.isNaN(date.getTime())) return { ok: false, reason: 'invalid' };
  // An offset moves whole minutes, so the sub-second digits stay as written.
  const seconds = date.toISOString().slice(0, 19);
  return { ok: true, value: { date, iso: `${seconds}${wall.fraction ? `.${wall.fraction}` : ''}Z` } };
}

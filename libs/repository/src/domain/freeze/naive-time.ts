import { DateTime, IANAZone } from 'luxon';

/**
 * Freeze `start`/`end` are naive wall-clock times in the freeze's own IANA timezone
 * (`2099-01-01T00:00:00`), echoed back as such; the service keeps the resolved UTC instants beside
 * them for ordering and activity. luxon does the resolution, including its choice in DST gaps
 * (the time moves forward by the gap) and overlaps (see naive-time.spec.ts for both).
 */
export type NaiveParse = { ok: true; naive: string } | { ok: false; problem: 'offset' | 'format' };

const NAIVE = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;
const TRAILING_OFFSET = /(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/;
const NAIVE_FORMAT = "yyyy-MM-dd'T'HH:mm:ss";

export const isIanaTimezone = (name: string): boolean => IANAZone.isValidZone(name);

/**
 * Accepts ISO 8601 date-times without an offset, `T` or space separated, seconds optional, and a bare
 * date as its midnight (as pydantic and the HTTP validator do); keeps seconds precision (the CLI
 * drops sub-seconds too) and answers the canonical `YYYY-MM-DDTHH:MM:SS`.
 */
export function parseNaiveDateTime(text: string): NaiveParse {
  const match = NAIVE.exec(text);
  if (!match)
    return { ok: false, problem: NAIVE.test(text.replace(TRAILING_OFFSET, '')) ? 'offset' : 'format' };
  const [, year, month, day, hour = '00', minute = '00', second = '00'] = match;
  const parts = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  };
  // luxon would roll 24:00 over to the next day; a wall clock never shows it.
  if (parts.hour > 23 || !DateTime.fromObject(parts, { zone: 'UTC' }).isValid)
    return { ok: false, problem: 'format' };
  return { ok: true, naive: `${year}-${month}-${day}T${hour}:${minute}:${second}` };
}

/** The instant a canonical naive time denotes in `timezone`. */
export function resolveNaive(naive: string, timezone: string): Date {
  const local = DateTime.fromISO(naive, { zone: timezone });
  if (!local.isValid) throw new Error(`Cannot resolve ${naive} in ${timezone}: ${local.invalidReason}`);
  return local.toJSDate();
}

/** The wall-clock time `instant` shows in `timezone`, truncated to the second. */
export const renderNaive = (instant: Date, timezone: string): string =>
  DateTime.fromJSDate(instant, { zone: timezone }).toFormat(NAIVE_FORMAT);

/** Truncates to the second, the precision freeze times are kept in. */
export const truncateToSecond = (instant: Date): Date =>
  new Date(Math.floor(instant.getTime() / 1000) * 1000);

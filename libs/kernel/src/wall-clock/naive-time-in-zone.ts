import { DateTime } from 'luxon';

/**
 * Naive wall-clock times read in an IANA zone. luxon does the resolution, including its choice in DST
 * gaps (the time moves forward by the gap) and overlaps (the later, standard-time occurrence); see
 * naive-time-in-zone.spec.ts for both.
 */
const NAIVE_SECONDS_FORMAT = "yyyy-MM-dd'T'HH:mm:ss";

/** The instant a naive time (as parseNaiveDateTime normalises it) denotes in `timezone`. */
export function resolveNaive(naive: string, timezone: string): Date {
  const local = DateTime.fromISO(naive, { zone: timezone });
  if (!local.isValid) throw new Error(`Cannot resolve ${naive} in ${timezone}: ${local.invalidReason}`);
  return local.toJSDate();
}

/** The wall-clock time `instant` shows in `timezone`, truncated to the second. */
export const renderNaive = (instant: Date, timezone: string): string =>
  DateTime.fromJSDate(instant, { zone: timezone }).toFormat(NAIVE_SECONDS_FORMAT);

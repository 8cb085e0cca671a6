import { splitZone } from './timestamp';

/**
 * A `current-datetime` interval (Mergify's "Timestamp Interval" data type): `A/B`, ISO 8601 on
 * both sides, with `XX`/`XXXX` for "any" in any date or time field and an optional `[Zone]` at the
 * end that applies to both sides (UTC otherwise). `XXXX-07-14T14:00/XXXX-07-14T19:00[Europe/Paris]`
 * is "14:00 to 19:00 every 14th of July".
 *
 * [INFERENCE] How wildcards combine: a field written on one side and left open on the other takes
 * the written value on both (so `2023-07-XXT14:00/XXXX-07-XXT19:00` stays within 2023); a field open
 * on both sides takes the current date's value. The end is inclusive to the precision it is written
 * in (`…T23:59` holds until 23:59:59.999; a bare date holds all day).
 */
export interface WildDateTime {
  year: number | null;
  month: number | null;
  day: number | null;
  hour: number | null;
  minute: number | null;
  second: number;
  millisecond: number;
}

export type EndPrecision = 'day' | 'minute' | 'second' | 'millisecond';

export interface DateTimeInterval {
  start: WildDateTime;
  end: WildDateTime;
  /** IANA zone, or a fixed offset written as `UTC+02:00`. */
  timezone: string;
  endPrecision: EndPrecision;
}

export type IntervalParse = { ok: true; interval: DateTimeInterval } | { ok: false; detail: string };

const SIDE =
  /^(\d{4}|XXXX)-(\d{2}|XX)-(\d{2}|XX)(?:[T ](\d{2}|XX):(\d{2}|XX)(?::(\d{2})(?:\.(\d{1,6}))?)?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

interface Side {
  value: WildDateTime;
  offset: string | null;
  precision: EndPrecision;
}

const field = (text: string | undefined): number | null =>
  text === undefined || /^X+$/.test(text) ? null : Number(text);

function parseSide(text: string): Side | null {
  const match = SIDE.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const value: WildDateTime = {
    year: field(year),
    month: field(month),
    day: field(day),
    hour: hour === undefined ? 0 : field(hour),
    minute: minute === undefined ? 0 : field(minute),
    second: second === undefined ? 0 : Number(second),
    millisecond: fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000),
  };
  if (value.month !== null && (value.month < 1 || value.month > 12)) return null;
  if (value.day !== null && (value.day < 1 || value.day > 31)) return null;
  if (value.hour !== null && value.hour > 23) return null;
  if (value.minute !== null && value.minute > 59) return null;
  if (value.second > 59) return null;
  const precision: EndPrecision =
    hour === undefined
      ? 'day'
      : fraction !== undefined
        ? 'millisecond'
        : second !== undefined
          ? 'second'
          : 'minute';
  return { value, offset: offset === undefined ? null : offset, precision };
}

function offsetZone(offset: string): string {
  if (offset === 'Z' || offset === 'z') return 'UTC';
  const sign = offset[0];
  const digits = offset.slice(1).replace(':', '');
  return `UTC${sign}${digits.slice(0, 2)}:${digits.slice(2) || '00'}`;
}

export function parseDateTimeInterval(text: string): IntervalParse {
  const split = splitZone(text);
  if ('error' in split) return { ok: false, detail: split.error };
  const sides = split.body.split('/');
  if (sides.length !== 2)
    return { ok: false, detail: 'Invalid interval: use START/END, e.g. 2023-07-13T14:00/2023-07-13T16:00' };
  const [start, end] = sides.map(parseSide);
  if (!start || !end)
    return {
      ok: false,
      detail: 'Invalid interval: each side is an ISO 8601 date-time, with XX for any value',
    };
  const offsets = [start.offset, end.offset].filter((offset): offset is string => offset !== null);
  if (offsets.length > 0 && (split.zone !== null || new Set(offsets.map(offsetZone)).size > 1))
    return { ok: false, detail: 'Invalid interval: give one timezone for both sides' };
  const timezone = split.zone ?? (offsets[0] ? offsetZone(offsets[0]) : 'UTC');
  return {
    ok: true,
    interval: { start: start.value, end: end.value, timezone, endPrecision: end.precision },
  };
}

export const hasWildcard = (value: WildDateTime): boolean =>
  value.year === null ||
  value.month === null ||
  value.day === null ||
  value.hour === null ||
  value.minute === null;

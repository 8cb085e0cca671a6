import { isKnownTimeZone } from './time-zone';

/**
 * A `schedule` value (queue-semantics §5.2, Mergify's "Schedule" data type): days, times or both,
 * with an optional IANA zone in brackets (UTC when absent) — `Mon-Fri`, `09:00-19:00`,
 * `Mon-Fri 09:00-19:00[America/Vancouver]`. Bounds are inclusive, to the minute: 09:00-19:00 holds
 * from 09:00:00 to 19:00:59. A range whose end comes before its start wraps (`Fri-Mon`,
 * `22:00-06:00`); a wrapped time range is judged on the current day, so with `Mon-Fri 22:00-06:00`
 * Saturday 02:00 is outside.
 */
export interface Schedule {
  timezone: string;
  /** ISO weekdays (1 = Monday … 7 = Sunday), sorted; null = every day. */
  days: number[] | null;
  /** null = all day. */
  times: TimeRange | null;
}

export interface TimeOfDay {
  hour: number;
  minute: number;
}

export interface TimeRange {
  start: TimeOfDay;
  end: TimeOfDay;
}

export type ScheduleParse = { ok: true; schedule: Schedule } | { ok: false; detail: string };

const DAY_NAMES: readonly string[] = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
];

function dayNumber(text: string): number | null {
  const lower = text.toLowerCase();
  if (/^[1-7]$/.test(lower)) return Number(lower);
  const index = DAY_NAMES.findIndex((name) => name === lower || name.slice(0, 3) === lower);
  return index === -1 ? null : index + 1;
}

function parseDays(text: string): number[] | string {
  const days = new Set<number>();
  for (const item of text.split(',')) {
    const bounds = item.split('-');
    if (bounds.length > 2 || bounds.some((bound) => bound.trim() === ''))
      return `Invalid day range '${item}'`;
    const [from, to] = bounds.map((bound) => dayNumber(bound.trim()));
    if (from === null || to === null) return `Invalid day '${item}': use Mon..Sun, Monday..Sunday or 1..7`;
    const last = to ?? from!;
    for (let day = from!; ; day = (day % 7) + 1) {
      days.add(day);
      if (day === last) break;
    }
  }
  return [...days].sort((a, b) => a - b);
}

function parseTime(text: string): TimeOfDay | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

function parseTimes(text: string): TimeRange | string {
  const bounds = text.split('-');
  const [start, end] = bounds.map(parseTime);
  if (bounds.length !== 2 || !start || !end) return `Invalid time range '${text}': use HH:MM-HH:MM`;
  return { start, end };
}

export function parseSchedule(text: string): ScheduleParse {
  const zoned = /^(.*?)\s*\[([^\]]*)\]$/.exec(text.trim());
  const body = (zoned ? zoned[1]! : text).trim();
  const timezone = zoned ? zoned[2]!.trim() : 'UTC';
  if (!isKnownTimeZone(timezone)) return { ok: false, detail: `Invalid timezone '${timezone}'` };
  const parts = body.split(/\s+/).filter((part) => part !== '');
  if (parts.length === 0 || parts.length > 2) return { ok: false, detail: 'Invalid schedule' };
  let days: number[] | null = null;
  let times: TimeRange | null = null;
  for (const part of parts) {
    if (part.includes(':') || days !== null) {
      if (times) return { ok: false, detail: 'Invalid schedule: two time ranges' };
      const parsed = parseTimes(part);
      if (typeof parsed === 'string') return { ok: false, detail: parsed };
      times = parsed;
    } else {
      if (days || times) return { ok: false, detail: 'Invalid schedule: days come first, then times' };
      const parsed = parseDays(part);
      if (typeof parsed === 'string') return { ok: false, detail: parsed };
      days = parsed;
    }
  }
  return { ok: true, schedule: { timezone, days, times } };
}

/** Calendar checks shared by the date-time parsers; regexes accept `2026-02-31`, these do not. */
export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export const daysInMonth = (year: number, month: number): number =>
  month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Fractional second digits as written, cut to microseconds (PostgreSQL's precision). */
  fraction: string;
}

export const isValidWallClock = (t: WallClock): boolean =>
  t.month >= 1 &&
  t.month <= 12 &&
  t.day >= 1 &&
  t.day <= daysInMonth(t.year, t.month) &&
  t.hour <= 23 &&
  t.minute <= 59 &&
  t.second <= 59;

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** `YYYY-MM-DDTHH:MM:SS[.ffffff]`, the form both parsers normalise to. */
export const formatWallClock = (t: WallClock): string =>
  `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}` +
  (t.fraction ? `.${t.fraction}` : '');

export const wallClockFromMatch = (groups: Array<string | undefined>): WallClock => {
  const [year, month, day, hour, minute, second, fraction] = groups;
  return {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute ?? 0),
    second: Number(second ?? 0),
    fraction: (fraction ?? '').slice(0, 6),
  };
};

/**
 * Mergify's duration notation (data-types "Duration"): one or more `quantity unit` pairs, where
 * the quantity is a number, possibly signed, and the unit a second, minute, hour or day, abbreviated
 * or plural, with or without a space: `1 day 15 hours 6 minutes 42 seconds`, `1 d 15 h`, `5min`.
 * The one home for duration text in Switchyard.
 */
const UNIT_SECONDS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86_400,
  day: 86_400,
  days: 86_400,
};

const PAIR = /\s*([+-]?\d+(?:\.\d+)?)\s*([a-z]+)/iy;

export type DurationParse = { ok: true; seconds: number } | { ok: false; reason: string };

export function parseDuration(text: string): DurationParse {
  if (text.trim() === '') return { ok: false, reason: 'a duration cannot be empty' };
  PAIR.lastIndex = 0;
  let seconds = 0;
  let consumed = 0;
  for (let match = PAIR.exec(text); match; match = PAIR.exec(text)) {
    const unit = UNIT_SECONDS[match[2].toLowerCase()];
    if (unit === undefined)
      return { ok: false, reason: `unknown unit '${match[2]}' (use seconds, minutes, hours or days)` };
    seconds += Number(match[1]) * unit;
    consumed = PAIR.lastIndex;
  }
  if (consumed === 0 || text.slice(consumed).trim() !== '')
    return { ok: false, reason: `'${text}' is not a duration such as '30 seconds', '5 min' or '1 h 30 m'` };
  return { ok: true, seconds };
}

/** `90` → `1 minute 30 seconds`, for summaries. */
export function formatDuration(totalSeconds: number): string {
  if (totalSeconds === 0) return '0 seconds';
  const parts: string[] = [];
  let rest = totalSeconds;
  for (const [name, size] of [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count} ${name}${count === 1 ? '' : 's'}`);
    rest -= count * size;
  }
  return parts.join(' ');
}

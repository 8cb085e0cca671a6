import { isKnownTimeZone } from './time-zone';
import { DateTime } from 'luxon';

/**
 * Timestamps in conditions (queue-semantics §5.2, Mergify's "Timestamp" and "Relative Timestamp"
 * data types): ISO 8601 with an optional offset and an optional `[Zone/Name]` suffix (UTC when
 * neither is given), or "`[N days] [N hours] [N minutes] ago`", an exact subtraction from now.
 */
export type TimestampParse =
  | { ok: true; kind: 'instant'; iso: string }
  | { ok: true; kind: 'relative'; milliseconds: number }
  | { ok: false; detail: string };

const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
const RELATIVE = /^(?:(\d+)\s*days?)?\s*(?:(\d+)\s*hours?)?\s*(?:(\d+)\s*minutes?)?\s*ago$/i;

/** Splits a trailing `[Zone]`; the zone is null when absent and undefined when unknown. */
export function splitZone(text: string): { body: string; zone: string | null } | { error: string } {
  const zoned = /^(.*?)\[([^\]]*)\]$/.exec(text.trim());
  if (!zoned) return { body: text.trim(), zone: null };
  const zone = zoned[2]!.trim();
  if (!isKnownTimeZone(zone)) return { error: `Invalid timezone '${zone}'` };
  return { body: zoned[1]!.trim(), zone };
}

export function parseTimestamp(text: string): TimestampParse {
  const relative = RELATIVE.exec(text.trim());
  if (relative && (relative[1] ?? relative[2] ?? relative[3]) !== undefined) {
    const [days, hours, minutes] = [relative[1], relative[2], relative[3]].map((part) => Number(part ?? 0));
    return { ok: true, kind: 'relative', milliseconds: ((days! * 24 + hours!) * 60 + minutes!) * 60_000 };
  }
  const split = splitZone(text);
  if ('error' in split) return { ok: false, detail: split.error };
  if (!ISO.test(split.body))
    return {
      ok: false,
      detail:
        'Invalid timestamp: use ISO 8601 (2021-04-05T12:00:00[Europe/Paris]) or a relative time (3 days ago)',
    };
  const parsed = DateTime.fromISO(split.body.replace(' ', 'T'), { zone: split.zone ?? 'UTC' });
  if (!parsed.isValid)
    return { ok: false, detail: `Invalid timestamp: ${parsed.invalidExplanation ?? 'not a date'}` };
  return { ok: true, kind: 'instant', iso: parsed.toUTC().toISO()! };
}

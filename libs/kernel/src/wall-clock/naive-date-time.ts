import { formatWallClock, isValidWallClock, wallClockFromMatch, type WallClock } from './wall-clock';

/**
 * Wall-clock times with no zone, as scheduled freezes use them (`2099-01-01T00:00:00`, read in the
 * freeze's own timezone). ISO 8601 without an offset, `T` or space separated, seconds optional, and a
 * bare date as its midnight (as pydantic does). A value carrying an offset or `Z` is refused:
 * accepting it would mean either dropping the offset silently or converting into a zone the caller
 * did not pick.
 */
export interface ParsedNaiveDateTime extends WallClock {
  /** `YYYY-MM-DDTHH:MM:SS[.ffffff]`. */
  iso: string;
  /** `YYYY-MM-DDTHH:MM:SS`: the precision freezes keep (the CLI drops sub-seconds too). */
  seconds: string;
}

export type NaiveRefusal = 'not_a_string' | 'has_offset' | 'invalid';

export type NaiveParseResult = { ok: true; value: ParsedNaiveDateTime } | { ok: false; reason: NaiveRefusal };

const NAIVE = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?$/;
const HAS_OFFSET = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/;

export function parseNaiveDateTime(value: unknown): NaiveParseResult {
  if (typeof value !== 'string') return { ok: false, reason: 'not_a_string' };
  const match = NAIVE.exec(value);
  if (!match) return { ok: false, reason: HAS_OFFSET.test(value) ? 'has_offset' : 'invalid' };
  const wall = wallClockFromMatch(match.slice(1, 8));
  if (!isValidWallClock(wall)) return { ok: false, reason: 'invalid' };
  return {
    ok: true,
    value: { ...wall, iso: formatWallClock(wall), seconds: formatWallClock({ ...wall, fraction: '' }) },
  };
}

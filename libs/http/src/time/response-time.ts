import { parseRfc3339 } from './rfc3339';

/**
 * Every instant a response carries must be RFC 3339 with an offset: the CLI drops or fails on
 * anything else (client-contract §0.6). Date objects are safe as they are (JSON.stringify emits
 * `…Z`); this helper is for values that arrive as text, such as a timestamptz read as a string,
 * and keeps up to six fractional digits. An offset-less string is a programming error here, so it
 * throws rather than guess a zone (a 500 is better than a silently shifted time).
 */
export function toResponseTime(value: Date | string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Error('Cannot format an invalid Date as a response time');
    return value.toISOString();
  }
  // PostgreSQL's text form uses a space and a short `+00` offset; both parse.
  const parsed = parseRfc3339(value);
  if (!parsed.ok) throw new Error(`Not an RFC 3339 time with an offset: ${JSON.stringify(value)}`);
  return parsed.value.iso;
}

export const toResponseTimeOrNull = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : toResponseTime(value);

import { Transform } from 'class-transformer';

/**
 * Query strings carry text only, and a key sent once arrives as a string while a repeated key
 * arrives as an array. These transforms give DTOs the shapes pydantic would: they convert what
 * parses and leave anything else untouched, so the validators (IsInt, IsBoolean…) report it with the
 * caller's original text as `input`.
 */

const toArray = (value: unknown): unknown => (value === undefined || Array.isArray(value) ? value : [value]);

const mapEach = (value: unknown, convert: (item: unknown) => unknown): unknown =>
  Array.isArray(value) ? value.map(convert) : convert(value);

const INTEGER = /^[+-]?\d+$/;

/** Strict decimal integers only: `Number('')`, `Number('0x10')` or `Number('1e3')` would all pass. */
export const parseQueryInteger = (value: unknown): unknown => {
  if (typeof value !== 'string' || !INTEGER.test(value)) return value;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) ? parsed : value;
};

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/** pydantic's boolean words, case-insensitive. */
export const parseQueryBoolean = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const word = value.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return value;
};

/**
 * `?a=1&a=2` and `?a=1` both become arrays, in the caller's order. Put it on every repeatable query
 * field, with `{ each: true }` on its item validators.
 */
export const QueryArray = (): PropertyDecorator => Transform(({ value }) => toArray(value));

/** Integers from query text; also converts each element of a (QueryArray) list. */
export const QueryInt = (): PropertyDecorator => Transform(({ value }) => mapEach(value, parseQueryInteger));

/** Booleans from query text (`true`/`false`/`1`/`0`/`yes`/`no`/`on`/`off`). */
export const QueryBoolean = (): PropertyDecorator =>
  Transform(({ value }) => mapEach(value, parseQueryBoolean));

import { type Cursor, INVALID, type Invalid } from './findings';

/** Reads one configuration value at a cursor: the typed value, or INVALID with the problem recorded. */
export type Reader<T> = (value: unknown, at: Cursor) => T | Invalid;

export type Mapping = Record<string, unknown>;

export const isMapping = (value: unknown): value is Mapping =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return typeof value;
}

const expected = (what: string, value: unknown, at: Cursor): Invalid =>
  at.fail(`expected ${what}, got ${describeType(value)}`);

export function readMapping(value: unknown, at: Cursor): Mapping | Invalid {
  return isMapping(value) ? value : expected('a mapping', value, at);
}

/**
 * Refuses keys the section does not know (Mergify's schema has `additionalProperties: false`
 * everywhere). Keys in `tolerated` were handled by the caller (legacy spellings).
 */
export function refuseUnknownKeys(
  mapping: Mapping,
  at: Cursor,
  known: ReadonlySet<string>,
  tolerated: ReadonlySet<string> = EMPTY,
): void {
  for (const key of Object.keys(mapping)) {
    if (!known.has(key) && !tolerated.has(key)) at.at(key).fail(`unknown key '${key}'`);
  }
}
const EMPTY: ReadonlySet<string> = new Set();

export const keys = (...names: string[]): ReadonlySet<string> => new Set(names);

export function readString(
  value: unknown,
  at: Cursor,
  options: { minLength?: number } = {},
): string | Invalid {
  if (typeof value !== 'string') return expected('a string', value, at);
  if (options.minLength !== undefined && value.length < options.minLength)
    return at.fail(`must be at least ${options.minLength} characters long`);
  return value;
}

export function readBoolean(value: unknown, at: Cursor): boolean | Invalid {
  return typeof value === 'boolean' ? value : expected('a boolean', value, at);
}

export function readInteger(
  value: unknown,
  at: Cursor,
  bounds: { min?: number; max?: number } = {},
): number | Invalid {
  if (typeof value !== 'number' || !Number.isInteger(value)) return expected('an integer', value, at);
  const { min, max } = bounds;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    if (min !== undefined && max !== undefined)
      return at.fail(`must be between ${min} and ${max}, got ${value}`);
    if (min !== undefined) return at.fail(`must be at least ${min}, got ${value}`);
    return at.fail(`must be at most ${max}, got ${value}`);
  }
  return value;
}

export function readEnum<T extends string>(value: unknown, at: Cursor, allowed: readonly T[]): T | Invalid {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  return at.fail(`expected one of ${allowed.map((v) => `'${v}'`).join(', ')}, got ${shortText(value)}`);
}

export function readList<T>(
  value: unknown,
  at: Cursor,
  item: Reader<T>,
  bounds: { minItems?: number; maxItems?: number } = {},
): T[] | Invalid {
  if (!Array.isArray(value)) return expected('a list', value, at);
  if (bounds.maxItems !== undefined && value.length > bounds.maxItems)
    return at.fail(`must have at most ${bounds.maxItems} items, got ${value.length}`);
  if (bounds.minItems !== undefined && value.length < bounds.minItems)
    return at.fail(`must have at least ${bounds.minItems} item${bounds.minItems === 1 ? '' : 's'}`);
  const items: T[] = [];
  let valid = true;
  for (let index = 0; index < value.length; index += 1) {
    const read = item(value[index], at.at(index));
    if (read === INVALID) valid = false;
    else items.push(read);
  }
  return valid ? items : INVALID;
}

/** `reader`, or null when the value is null (`key: null` or `key:` with nothing after it). */
export function nullable<T>(reader: Reader<T>): Reader<T | null> {
  return (value, at) => (value === null ? null : reader(value, at));
}

/** Reads `mapping[key]` when present, else answers `fallback` without looking further. */
export function field<T, D>(
  mapping: Mapping,
  at: Cursor,
  key: string,
  reader: Reader<T>,
  fallback: D,
): T | D | Invalid {
  const value = mapping[key];
  return value === undefined ? fallback : reader(value, at.at(key));
}

export function requiredField<T>(mapping: Mapping, at: Cursor, key: string, reader: Reader<T>): T | Invalid {
  const value = mapping[key];
  return value === undefined ? at.at(key).fail('required key is missing') : reader(value, at.at(key));
}

export const stringReader: Reader<string> = (value, at) => readString(value, at);
export const booleanReader: Reader<boolean> = (value, at) => readBoolean(value, at);
export const enumReader =
  <T extends string>(allowed: readonly T[]): Reader<T> =>
  (value, at) =>
    readEnum(value, at, allowed);
export const integerReader =
  (bounds: { min?: number; max?: number } = {}): Reader<number> =>
  (value, at) =>
    readInteger(value, at, bounds);
export const listReader =
  <T>(item: Reader<T>, bounds: { minItems?: number; maxItems?: number } = {}): Reader<T[]> =>
  (value, at) =>
    readList(value, at, item, bounds);

function shortText(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return describeType(value);
}

/** True when any value in `values` failed: a section is valid only if every field is. */
export const anyInvalid = (...values: unknown[]): boolean => values.some((value) => value === INVALID);

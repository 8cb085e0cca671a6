import type { IssueShape } from './validation-issue';

/**
 * pydantic v2 error types and messages, so 422 bodies read like the FastAPI service the CLI was
 * written against. One function per type keeps the wording in a single place.
 */
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export const issueShapes = {
  missing: (): IssueShape => ({ type: 'missing', msg: 'Field required' }),
  stringType: (): IssueShape => ({ type: 'string_type', msg: 'Input should be a valid string' }),
  stringTooLong: (max: number): IssueShape => ({
    type: 'string_too_long',
    msg: `String should have at most ${plural(max, 'character')}`,
    ctx: { max_length: max },
  }),
  stringTooShort: (min: number): IssueShape => ({
    type: 'string_too_short',
    msg: `String should have at least ${plural(min, 'character')}`,
    ctx: { min_length: min },
  }),
  stringPattern: (pattern: string): IssueShape => ({
    type: 'string_pattern_mismatch',
    msg: `String should match pattern '${pattern}'`,
    ctx: { pattern },
  }),
  intParsing: (): IssueShape => ({
    type: 'int_parsing',
    msg: 'Input should be a valid integer, unable to parse string as an integer',
  }),
  intFromFloat: (): IssueShape => ({
    type: 'int_from_float',
    msg: 'Input should be a valid integer, got a number with a fractional part',
  }),
  intType: (): IssueShape => ({ type: 'int_type', msg: 'Input should be a valid integer' }),
  floatParsing: (): IssueShape => ({
    type: 'float_parsing',
    msg: 'Input should be a valid number, unable to parse string as a number',
  }),
  floatType: (): IssueShape => ({ type: 'float_type', msg: 'Input should be a valid number' }),
  greaterThanEqual: (ge: number | bigint): IssueShape => ({
    type: 'greater_than_equal',
    msg: `Input should be greater than or equal to ${ge}`,
    ctx: { ge: toJsonNumber(ge) },
  }),
  greaterThan: (gt: number | bigint): IssueShape => ({
    type: 'greater_than',
    msg: `Input should be greater than ${gt}`,
    ctx: { gt: toJsonNumber(gt) },
  }),
  lessThan: (lt: number | bigint): IssueShape => ({
    type: 'less_than',
    msg: `Input should be less than ${lt}`,
    ctx: { lt: toJsonNumber(lt) },
  }),
  lessThanEqual: (le: number | bigint): IssueShape => ({
    type: 'less_than_equal',
    msg: `Input should be less than or equal to ${le}`,
    ctx: { le: toJsonNumber(le) },
  }),
  enum: (allowed: readonly unknown[]): IssueShape => {
    const expected = describeChoices(allowed);
    return { type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } };
  },
  boolParsing: (): IssueShape => ({
    type: 'bool_parsing',
    msg: 'Input should be a valid boolean, unable to interpret input',
  }),
  boolType: (): IssueShape => ({ type: 'bool_type', msg: 'Input should be a valid boolean' }),
  listType: (): IssueShape => ({ type: 'list_type', msg: 'Input should be a valid list' }),
  tooLong: (max: number): IssueShape => ({
    type: 'too_long',
    msg: `List should have at most ${plural(max, 'item')}`,
    ctx: { field_type: 'List', max_length: max },
  }),
  tooShort: (min: number): IssueShape => ({
    type: 'too_short',
    msg: `List should have at least ${plural(min, 'item')}`,
    ctx: { field_type: 'List', min_length: min },
  }),
  dictType: (): IssueShape => ({
    type: 'model_attributes_type',
    msg: 'Input should be a valid dictionary or object to extract fields from',
  }),
  uuidParsing: (): IssueShape => ({
    type: 'uuid_parsing',
    msg: 'Input should be a valid UUID, expected 32 hexadecimal digits in 8-4-4-4-12 groups',
  }),
  uuidType: (): IssueShape => ({
    type: 'uuid_type',
    msg: 'UUID input should be a string, bytes or UUID object',
  }),
  datetimeParsing: (): IssueShape => ({
    type: 'datetime_from_date_parsing',
    msg: 'Input should be a valid datetime or date, expected ISO 8601 (YYYY-MM-DDTHH:MM:SS)',
  }),
  datetimeType: (): IssueShape => ({ type: 'datetime_type', msg: 'Input should be a valid datetime' }),
  timezoneAware: (): IssueShape => ({ type: 'timezone_aware', msg: 'Input should have timezone info' }),
  timezoneNaive: (): IssueShape => ({ type: 'timezone_naive', msg: 'Input should not have timezone info' }),
  valueError: (message: string): IssueShape => ({
    type: 'value_error',
    msg: `Value error, ${message}`,
    ctx: { error: message },
  }),
};

/** `'a', 'b' or 'c'`, pydantic's wording for an enum's members. */
export const describeChoices = (allowed: readonly unknown[]): string => {
  const quoted = allowed.map((value) => (typeof value === 'string' ? `'${value}'` : String(value)));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
};

/** Bounds beyond 2^53 stay exact as strings rather than rounding as numbers. */
const toJsonNumber = (value: number | bigint): number | string =>
  typeof value === 'bigint'
    ? Number.isSafeInteger(Number(value))
      ? Number(value)
      : value.toString()
    : value;

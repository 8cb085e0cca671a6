import {
  ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE,
  IS_ARRAY,
  IS_BOOLEAN,
  IS_DEFINED,
  IS_ENUM,
  IS_IN,
  IS_INT,
  IS_NOT_EMPTY,
  IS_NUMBER,
  IS_STRING,
  IS_UUID,
  MATCHES,
  MAX,
  MAX_LENGTH,
  MIN,
  MIN_LENGTH,
  arrayMaxSize,
  arrayMinSize,
  isBoolean,
  isEnum,
  isIn,
  isInt,
  isNotEmpty,
  isNumber,
  isString,
  isUUID,
  matches,
  max,
  maxLength,
  min,
  minLength,
} from 'class-validator';
import { issueShapes } from './issue-shapes';
import type { IssueShape } from './validation-issue';

/**
 * Turns a failed class-validator rule into a pydantic-style issue. Validators are named (the
 * constraint key class-validator reports); each describer knows its pydantic type and wording, and
 * can re-test one element so rules declared with `{ each: true }` report the failing index, as
 * pydantic's `loc` does.
 */
export interface IssueDescriber {
  /** When one field breaks several rules, the lowest rank is reported (type before bounds). */
  rank: number;
  test(value: unknown, constraints: readonly unknown[]): boolean;
  describe(value: unknown, constraints: readonly unknown[]): IssueShape;
}

export const RANK_TYPE = 0;
export const RANK_FORMAT = 1;
export const RANK_BOUND = 2;

const describers = new Map<string, IssueDescriber>();

/** Custom validators register here so their failures read like pydantic's, not `value_error`. */
export const registerIssueDescriber = (constraintName: string, describer: IssueDescriber): void => {
  describers.set(constraintName, describer);
};

export const issueDescriberFor = (constraintName: string): IssueDescriber | undefined =>
  describers.get(constraintName);

const numberShape = (value: unknown, integer: boolean): IssueShape => {
  if (typeof value === 'string') return integer ? issueShapes.intParsing() : issueShapes.floatParsing();
  if (integer && typeof value === 'number' && Number.isFinite(value)) return issueShapes.intFromFloat();
  return integer ? issueShapes.intType() : issueShapes.floatType();
};

const asNumber = (bound: unknown): number => Number(bound);

registerIssueDescriber(IS_DEFINED, {
  rank: RANK_TYPE,
  test: (value) => value !== undefined && value !== null,
  describe: () => issueShapes.missing(),
});
registerIssueDescriber(IS_STRING, {
  rank: RANK_TYPE,
  test: (value) => isString(value),
  describe: () => issueShapes.stringType(),
});
registerIssueDescriber(IS_INT, {
  rank: RANK_TYPE,
  test: (value) => isInt(value),
  describe: (value) => numberShape(value, true),
});
registerIssueDescriber(IS_NUMBER, {
  rank: RANK_TYPE,
  test: (value, [options]) => isNumber(value, (options ?? {}) as object),
  describe: (value) => numberShape(value, false),
});
registerIssueDescriber(IS_BOOLEAN, {
  rank: RANK_TYPE,
  test: (value) => isBoolean(value),
  describe: (value) => (typeof value === 'string' ? issueShapes.boolParsing() : issueShapes.boolType()),
});
registerIssueDescriber(IS_ARRAY, {
  rank: RANK_TYPE,
  test: (value) => Array.isArray(value),
  describe: () => issueShapes.listType(),
});
registerIssueDescriber(IS_ENUM, {
  rank: RANK_TYPE,
  test: (value, [entity]) => isEnum(value, entity),
  describe: (_value, [, validValues]) => issueShapes.enum((validValues ?? []) as unknown[]),
});
registerIssueDescriber(IS_IN, {
  rank: RANK_TYPE,
  test: (value, [allowed]) => isIn(value, (allowed ?? []) as unknown[]),
  describe: (_value, [allowed]) => issueShapes.enum((allowed ?? []) as unknown[]),
});
registerIssueDescriber(IS_UUID, {
  rank: RANK_FORMAT,
  test: (value, [version]) => isUUID(value, version as never),
  describe: (value) => (typeof value === 'string' ? issueShapes.uuidParsing() : issueShapes.uuidType()),
});
registerIssueDescriber(MATCHES, {
  rank: RANK_FORMAT,
  test: (value, [pattern, modifiers]) =>
    typeof value === 'string' &&
    (pattern instanceof RegExp
      ? matches(value, pattern)
      : matches(value, String(pattern), modifiers as string)),
  describe: (_value, [pattern]) =>
    issueShapes.stringPattern(pattern instanceof RegExp ? pattern.source : String(pattern)),
});
registerIssueDescriber(MIN, {
  rank: RANK_BOUND,
  test: (value, [bound]) => min(value, asNumber(bound)),
  describe: (_value, [bound]) => issueShapes.greaterThanEqual(asNumber(bound)),
});
registerIssueDescriber(MAX, {
  rank: RANK_BOUND,
  test: (value, [bound]) => max(value, asNumber(bound)),
  describe: (_value, [bound]) => issueShapes.lessThanEqual(asNumber(bound)),
});
// Note: class-validator's MinLength/MaxLength count UTF-16 units; prefer MinCodePoints/MaxCodePoints.
registerIssueDescriber(MIN_LENGTH, {
  rank: RANK_BOUND,
  test: (value, [bound]) => minLength(value, asNumber(bound)),
  describe: (_value, [bound]) => issueShapes.stringTooShort(asNumber(bound)),
});
registerIssueDescriber(MAX_LENGTH, {
  rank: RANK_BOUND,
  test: (value, [bound]) => maxLength(value, asNumber(bound)),
  describe: (_value, [bound]) => issueShapes.stringTooLong(asNumber(bound)),
});
registerIssueDescriber(IS_NOT_EMPTY, {
  rank: RANK_BOUND,
  test: (value) => isNotEmpty(value) && value !== '',
  describe: () => issueShapes.stringTooShort(1),
});
registerIssueDescriber(ARRAY_MIN_SIZE, {
  rank: RANK_BOUND,
  test: (value, [bound]) => arrayMinSize(value, asNumber(bound)),
  describe: (_value, [bound]) => issueShapes.tooShort(asNumber(bound)),
});
registerIssueDescriber(ARRAY_MAX_SIZE, {
  rank: RANK_BOUND,
  test: (value, [bound]) => arrayMaxSize(value, asNumber(bound)),
  describe: (_value, [bound]) => issueShapes.tooLong(asNumber(bound)),
});

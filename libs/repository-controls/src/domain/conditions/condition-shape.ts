import { storableStringProblem } from '@switchyard/kernel';

/** Where in the submitted value a problem is, e.g. [2, 'and', 0]; the HTTP edge prefixes the field. */
export type ConditionPath = (string | number)[];

export interface ConditionProblem {
  path: ConditionPath;
  message: string;
}

/**
 * Checks one leaf's syntax; returns an error message or null. Until the condition parser arrives with
 * the configuration issue, leaves are only checked for being non-empty: the parser will plug in here
 * and freezes will then refuse misspelt attributes at creation time.
 */
export type LeafSyntax = (condition: string) => string | null;

export const shapeOnlyLeafSyntax: LeafSyntax = (condition) =>
  condition.trim() === '' ? `Invalid condition '${condition}'. Condition empty` : null;

/** Current Mergify schema limit per list. */
export const MAX_CONDITIONS_PER_LIST = 500;
/** Groups nest; a bound keeps a hostile body from recursing without end. */
export const MAX_CONDITION_DEPTH = 8;

const GROUP_KEYS = ['and', 'or', 'not'] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every problem in a submitted condition list (empty when it is well-formed). Conditions are kept and
 * echoed exactly as received, so nothing here normalizes.
 */
export function conditionListProblems(
  value: unknown,
  leafSyntax: LeafSyntax = shapeOnlyLeafSyntax,
): ConditionProblem[] {
  const problems: ConditionProblem[] = [];
  checkList(value, [], 1, leafSyntax, problems);
  return problems;
}

function checkList(
  value: unknown,
  path: ConditionPath,
  depth: number,
  leafSyntax: LeafSyntax,
  problems: ConditionProblem[],
): void {
  if (!Array.isArray(value)) {
    problems.push({ path, message: 'Input should be a valid list' });
    return;
  }
  if (value.length > MAX_CONDITIONS_PER_LIST) {
    problems.push({ path, message: `List should have at most ${MAX_CONDITIONS_PER_LIST} items` });
    return;
  }
  value.forEach((item, index) => checkCondition(item, [...path, index], depth, leafSyntax, problems));
}

function checkCondition(
  value: unknown,
  path: ConditionPath,
  depth: number,
  leafSyntax: LeafSyntax,
  problems: ConditionProblem[],
): void {
  if (typeof value === 'string') {
    // Storability is checked before, and whatever, the pluggable syntax: every leaf is stored.
    const unstorable = storableStringProblem(value);
    const error = unstorable ? `A condition ${unstorable.message}` : leafSyntax(value);
    if (error) problems.push({ path, message: error });
    return;
  }
  if (!isPlainObject(value)) {
    problems.push({
      path,
      message: 'A condition is a string or an object with one of the keys and, or, not',
    });
    return;
  }
  const keys = Object.keys(value);
  const key = keys[0];
  if (keys.length !== 1 || !GROUP_KEYS.includes(key as (typeof GROUP_KEYS)[number])) {
    problems.push({ path, message: 'A condition object has exactly one of the keys and, or, not' });
    return;
  }
  if (depth >= MAX_CONDITION_DEPTH) {
    problems.push({ path, message: `Conditions nest at most ${MAX_CONDITION_DEPTH} levels deep` });
    return;
  }
  const inner = value[key!];
  const innerPath = [...path, key!];
  if (key === 'not') {
    checkCondition(inner, innerPath, depth + 1, leafSyntax, problems);
    return;
  }
  if (Array.isArray(inner) && inner.length === 0) {
    problems.push({ path: innerPath, message: `An ${key} group needs at least one condition` });
    return;
  }
  checkList(inner, innerPath, depth + 1, leafSyntax, problems);
}

/**
 * A small stand-in for the condition language until the configuration issue brings the real parser
 * (queue-semantics §5): `attr=value`, `attr!=value`, a leading `-` to negate, and bare boolean
 * attributes (`draft`, `-conflict`), over a plain record of pull-request attributes. List attributes
 * (labels, files, …) match `=` when any element equals the value and `!=` when none does. Anything
 * else is refused loudly rather than guessed: a freeze silently not applying would be worse.
 */
export type AttributeValue = string | number | boolean | null | readonly (string | number)[];
export type PullRequestAttributes = Readonly<Record<string, AttributeValue>>;

export class UnsupportedConditionError extends Error {
  constructor(condition: string) {
    super(`The built-in evaluator does not understand the condition '${condition}'`);
    this.name = 'UnsupportedConditionError';
  }
}

const LEAF = /^\s*(-?)\s*([A-Za-z][\w-]*(?:\[[^\]]*\])?(?:\.[\w-]+)?)\s*(?:(!=|=)\s*(.*?))?\s*$/;

const unquote = (value: string): string =>
  /^(['"]).*\1$/.test(value) && value.length >= 2 ? value.slice(1, -1) : value;

const equals = (actual: string | number | null | boolean, expected: string): boolean =>
  actual !== null && String(actual) === expected;

export function evaluateAttributeLeaf(condition: string, pullRequest: PullRequestAttributes): boolean {
  const match = LEAF.exec(condition);
  if (!match) throw new UnsupportedConditionError(condition);
  const [, negation, attribute, operator, rawValue] = match;
  const actual = pullRequest[attribute!];
  let result: boolean;
  if (operator === undefined) {
    if (actual !== undefined && typeof actual !== 'boolean') throw new UnsupportedConditionError(condition);
    result = actual === true;
  } else {
    const value = unquote(rawValue ?? '');
    const values: readonly (string | number | boolean | null)[] =
      actual === undefined
        ? []
        : Array.isArray(actual)
          ? actual
          : [actual as string | number | boolean | null];
    const anyEqual = values.some((item) => equals(item, value));
    result = operator === '=' ? anyEqual : !anyEqual;
  }
  return negation === '-' ? !result : result;
}

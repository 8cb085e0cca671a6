import {
  type ConditionError,
  type ConditionGroup,
  type ConditionNode,
  formatPath,
  type PathStep,
} from '../condition-tree';
import { parseConditionLeaf } from './parse-leaf';

/**
 * A condition field as it appears in YAML or JSON — a string, `{and: [...]}`, `{or: [...]}`,
 * `{not: ...}`, a list (an implicit and) or `true` — read into a condition tree, or every problem in
 * it, each located under `prefix` (queue-semantics §5.1; Mergify's schema: at most 500 conditions per
 * list, `not` holds one condition or one and/or block).
 */
export type ConditionsParse =
  { ok: true; condition: ConditionNode } | { ok: false; errors: ConditionError[] };

export const MAX_CONDITIONS_PER_LIST = 500;
/** Blocks nest; a bound keeps a hostile document from recursing without end. */
export const MAX_CONDITION_NESTING = 8;

const GROUP_KEYS = ['and', 'or', 'not'] as const;
type GroupKey = (typeof GROUP_KEYS)[number];
const GROUP_LABELS: Record<GroupKey, string> = { and: 'all of', or: 'any of', not: 'not' };

export function parseConditions(value: unknown, prefix: string | readonly PathStep[] = []): ConditionsParse {
  const errors: ConditionError[] = [];
  const location = typeof prefix === 'string' ? parsePath(prefix) : [...prefix];
  const condition = readField(value, location, 0, errors);
  return condition && errors.length === 0 ? { ok: true, condition } : { ok: false, errors };
}

/** Reads `queue_rules[0].merge_conditions` back into steps. */
export function parsePath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    steps.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return steps;
}

const fail = (errors: ConditionError[], location: PathStep[], message: string): null => {
  errors.push({ path: formatPath(location), location, message });
  return null;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A whole field: a list, `true`, or a single condition. */
function readField(
  value: unknown,
  location: PathStep[],
  depth: number,
  errors: ConditionError[],
): ConditionNode | null {
  if (value === true || Array.isArray(value)) return readList(value, location, depth, errors, 'and');
  return readCondition(value, location, depth, errors, true);
}

function readList(
  value: true | unknown[],
  location: PathStep[],
  depth: number,
  errors: ConditionError[],
  kind: 'and' | 'or',
  explicit = false,
): ConditionGroup | null {
  const group = (children: ConditionNode[], implicit: boolean): ConditionGroup => ({
    kind,
    label: GROUP_LABELS[kind],
    implicit,
    children,
    location,
  });
  if (value === true) return group([], true);
  if (value.length > MAX_CONDITIONS_PER_LIST)
    return fail(errors, location, `A condition list holds at most ${MAX_CONDITIONS_PER_LIST} conditions`);
  if (explicit && value.length === 0)
    return fail(errors, location, `An ${kind} block needs at least one condition`);
  const children = value.map((item, index) =>
    readCondition(item, [...location, index], depth, errors, false),
  );
  return children.every((child): child is ConditionNode => child !== null)
    ? group(children, !explicit)
    : null;
}

function readCondition(
  value: unknown,
  location: PathStep[],
  depth: number,
  errors: ConditionError[],
  topLevel: boolean,
): ConditionNode | null {
  if (typeof value === 'string') {
    const parsed = parseConditionLeaf(value, location);
    return parsed.ok ? parsed.leaf : fail(errors, location, `Invalid condition '${value}'. ${parsed.detail}`);
  }
  if (!isPlainObject(value))
    return fail(
      errors,
      location,
      topLevel
        ? 'Conditions are a list of conditions, a condition string, an and/or/not block or true'
        : 'A condition is a string or a block with one of the keys and, or, not',
    );
  const keys = Object.keys(value);
  const key = keys[0] as GroupKey;
  if (keys.length !== 1 || !GROUP_KEYS.includes(key))
    return fail(errors, location, 'A condition block has exactly one of the keys and, or, not');
  if (depth >= MAX_CONDITION_NESTING)
    return fail(errors, location, `Condition blocks nest at most ${MAX_CONDITION_NESTING} levels deep`);
  const inner = value[key];
  const innerLocation = [...location, key];
  if (key !== 'not') {
    if (inner !== true && !Array.isArray(inner))
      return fail(errors, innerLocation, `An ${key} block holds a list of conditions`);
    return readList(inner, innerLocation, depth + 1, errors, key, true);
  }
  const negatable = typeof inner === 'string' || (isPlainObject(inner) && !('not' in inner));
  if (!negatable) return fail(errors, innerLocation, 'A not block holds one condition or one and/or block');
  const child = readCondition(inner, innerLocation, depth + 1, errors, false);
  return child && { kind: 'not', label: GROUP_LABELS.not, implicit: false, children: [child], location };
}

import {
  type ConditionError,
  type ConditionGroup,
  type ConditionNode,
  formatPath,
  type PathStep,
} from '../condition-tree';
import { type LeafParse, parseConditionLeaf } from './parse-leaf';

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

/**
 * Condition texts already read, without their location. A large configuration repeats the same
 * conditions rule after rule; one validation passes one memo to every field it reads.
 */
export type ConditionLeafMemo = Map<string, LeafParse>;

export function parseConditions(
  value: unknown,
  prefix: string | readonly PathStep[] = [],
  memo: ConditionLeafMemo = new Map(),
): ConditionsParse {
  const errors: ConditionError[] = [];
  const location = typeof prefix === 'string' ? parsePath(prefix) : [...prefix];
  const condition = readField(value, location, 0, { errors, memo });
  return condition && errors.length === 0 ? { ok: true, condition } : { ok: false, errors };
}

/** Reads `queue_rules[0].merge_conditions` back into steps. */
export function parsePath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    steps.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return steps;
}

/** What one parse shares: the problems found so far and the texts already read. */
interface ParseContext {
  errors: ConditionError[];
  memo: ConditionLeafMemo;
}

const fail = ({ errors }: ParseContext, location: PathStep[], message: string): null => {
  errors.push({ path: formatPath(location), location, message });
  return null;
};

function readLeaf(text: string, location: PathStep[], memo: ConditionLeafMemo): LeafParse {
  const known = memo.get(text);
  if (known === undefined) {
    // The first reading of a text is located where it stands; later ones copy it elsewhere.
    const parsed = parseConditionLeaf(text, location);
    memo.set(text, parsed);
    return parsed;
  }
  if (!known.ok) return known;
  // Written out rather than spread: spreading was most of a large file's condition time.
  const { label, negated, length, attribute, family, commit, operator, value } = known.leaf;
  return {
    ok: true,
    leaf: { kind: 'leaf', label, location, negated, length, attribute, family, commit, operator, value },
  };
}

/** `[...location, step]` at its exact size (a spread leaves room to grow, kept for every leaf). */
function stepInto(location: readonly PathStep[], step: PathStep): PathStep[] {
  const next = new Array<PathStep>(location.length + 1);
  for (let index = 0; index < location.length; index += 1) next[index] = location[index]!;
  next[location.length] = step;
  return next;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A whole field: a list, `true`, or a single condition. */
function readField(
  value: unknown,
  location: PathStep[],
  depth: number,
  context: ParseContext,
): ConditionNode | null {
  if (value === true || Array.isArray(value)) return readList(value, location, depth, context, 'and');
  return readCondition(value, location, depth, context, true);
}

function readList(
  value: true | unknown[],
  location: PathStep[],
  depth: number,
  context: ParseContext,
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
    return fail(context, location, `A condition list holds at most ${MAX_CONDITIONS_PER_LIST} conditions`);
  if (explicit && value.length === 0)
    return fail(context, location, `An ${kind} block needs at least one condition`);
  // Sized up front, as the locations below: a large file keeps one of each per condition.
  const children = new Array<ConditionNode>(value.length);
  let valid = true;
  for (let index = 0; index < value.length; index += 1) {
    const child = readCondition(value[index], stepInto(location, index), depth, context, false);
    if (child === null) valid = false;
    else children[index] = child;
  }
  return valid ? group(children, !explicit) : null;
}

function readCondition(
  value: unknown,
  location: PathStep[],
  depth: number,
  context: ParseContext,
  topLevel: boolean,
): ConditionNode | null {
  if (typeof value === 'string') {
    const parsed = readLeaf(value, location, context.memo);
    return parsed.ok
      ? parsed.leaf
      : fail(context, location, `Invalid condition '${value}'. ${parsed.detail}`);
  }
  if (!isPlainObject(value))
    return fail(
      context,
      location,
      topLevel
        ? 'Conditions are a list of conditions, a condition string, an and/or/not block or true'
        : 'A condition is a string or a block with one of the keys and, or, not',
    );
  const keys = Object.keys(value);
  const key = keys[0] as GroupKey;
  if (keys.length !== 1 || !GROUP_KEYS.includes(key))
    return fail(context, location, 'A condition block has exactly one of the keys and, or, not');
  if (depth >= MAX_CONDITION_NESTING)
    return fail(context, location, `Condition blocks nest at most ${MAX_CONDITION_NESTING} levels deep`);
  const inner = value[key];
  const innerLocation = stepInto(location, key);
  if (key !== 'not') {
    if (inner !== true && !Array.isArray(inner))
      return fail(context, innerLocation, `An ${key} block holds a list of conditions`);
    return readList(inner, innerLocation, depth + 1, context, key, true);
  }
  const negatable = typeof inner === 'string' || (isPlainObject(inner) && !('not' in inner));
  if (!negatable) return fail(context, innerLocation, 'A not block holds one condition or one and/or block');
  const child = readCondition(inner, innerLocation, depth + 1, context, false);
  return child && { kind: 'not', label: GROUP_LABELS.not, implicit: false, children: [child], location };
}

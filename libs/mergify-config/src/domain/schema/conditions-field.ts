import { type ConditionNode, MAX_CONDITION_NESTING, parseConditions } from '../../conditions';
import { type Cursor, INVALID, type Invalid } from './findings';
import { DEPRECATIONS } from './deprecation-catalogue';
import { describeType, isMapping } from './readers';

/** A condition as written in the file: a string, or an `and` / `or` / `not` group. */
export type ConditionSource =
  string | { and: ConditionSource[] } | { or: ConditionSource[] } | { not: ConditionSource };

/** A conditions field: `true` (always matches) or a list that must all match. */
export type ConditionsSource = true | ConditionSource[];

/**
 * A conditions field, validated: the text as written (for summaries and the legacy API) and the
 * parsed tree the evaluator reads.
 */
export interface ConfiguredConditions {
  source: ConditionsSource;
  tree: ConditionNode;
}

/**
 * Reads a conditions field: `true` or a list (Mergify's schema allows nothing else at the top),
 * then every condition through the condition-language parser, whose errors carry their own paths.
 */
export function readConditions(value: unknown, at: Cursor): ConfiguredConditions | Invalid {
  if (value !== true && !Array.isArray(value))
    return at.fail(`expected a list of conditions or true, got ${describeType(value)}`);
  const written = mentionsLegacyStatus(value) ? modernized(value, at) : value;
  const parsed = parseConditions(written, at.path, at.findings.conditionLeaves);
  if (!parsed.ok) {
    for (const error of parsed.errors)
      at.findings.problems.push({ path: error.location, message: error.message });
    return INVALID;
  }
  return { source: value as ConditionsSource, tree: parsed.condition };
}

/** `status-success` and its siblings: the 2022 names of `check-success`, `check-failure`, `check-neutral`. */
const LEGACY_STATUS_ATTRIBUTE = /^(\s*[-¬+]?\s*#?\s*)status-(success|failure|neutral)(?![\w-])/;

/** Whether any condition text in the field uses a `status-*` name; most fields need no copy. */
function mentionsLegacyStatus(value: unknown, depth = 0): boolean {
  if (depth > MAX_CONDITION_NESTING + 2) return false;
  if (typeof value === 'string') return LEGACY_STATUS_ATTRIBUTE.test(value);
  if (Array.isArray(value)) return value.some((item) => mentionsLegacyStatus(item, depth + 1));
  if (isMapping(value)) return Object.values(value).some((inner) => mentionsLegacyStatus(inner, depth + 1));
  return false;
}

/**
 * The conditions with the removed `status-*` attributes renamed to their `check-*` successors,
 * each rename reported as a deprecation at the condition's path. Other values are returned as is.
 */
function modernized(value: unknown, at: Cursor, depth = 0): unknown {
  // Aliases can make a cycle; past the parser's own nesting limit it refuses the value anyway.
  if (depth > MAX_CONDITION_NESTING + 2) return value;
  if (typeof value === 'string') {
    if (!LEGACY_STATUS_ATTRIBUTE.test(value)) return value;
    at.deprecated(DEPRECATIONS.statusAttributes);
    return value.replace(LEGACY_STATUS_ATTRIBUTE, '$1check-$2');
  }
  if (Array.isArray(value)) return value.map((item, index) => modernized(item, at.at(index), depth + 1));
  if (isMapping(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) copy[key] = modernized(inner, at.at(key), depth + 1);
    return copy;
  }
  return value;
}

/** Conditions written in code (built-in defaults); a mistake there is a bug, not a user error. */
export function builtInConditions(source: ConditionsSource): ConfiguredConditions {
  const parsed = parseConditions(source, []);
  if (!parsed.ok)
    throw new Error(`invalid built-in conditions: ${parsed.errors.map((e) => e.message).join('; ')}`);
  return { source, tree: parsed.condition };
}

export const NO_CONDITIONS = builtInConditions([]);
export const ALWAYS = builtInConditions(true);

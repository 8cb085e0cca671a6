import type { ConditionLeaf, LeafValue } from '../condition-tree';
import { SENDER_PERMISSIONS } from '../syntax/attributes';
import { compareTexts } from './compare-text';
import { compareInstants, judgeClock } from './compare-time';
import type { ConditionContext } from './context';
import { compareNumbers, EvaluationError, type Judgement, timeless } from './judgement';
import { compiledGlob, compiledRegex } from './pattern-cache';
import { type AttributeReading, readAttribute } from './read-attribute';

/** One condition judged for one pull request. */
export interface LeafVerdict {
  match: boolean;
  /** Why the condition could not be judged (it then does not match). */
  error: string | null;
  /** Check names behind a `check*` condition. */
  relatedChecks: string[];
  /** When a time-based condition may change its verdict. */
  nextEvaluationAt: Date | null;
}

export function evaluateLeaf(leaf: ConditionLeaf, context: ConditionContext): LeafVerdict {
  const reading = readAttribute(leaf, context);
  if (reading.kind === 'unknown')
    return { match: false, error: reading.reason, relatedChecks: [], nextEvaluationAt: null };
  try {
    const { match, nextEvaluationAt } = judge(leaf, reading, context);
    return {
      match: leaf.negated ? !match : match,
      error: null,
      relatedChecks: relatedChecks(leaf, context),
      nextEvaluationAt,
    };
  } catch (error) {
    if (!(error instanceof EvaluationError)) throw error;
    return { match: false, error: error.message, relatedChecks: [], nextEvaluationAt: null };
  }
}

function judge(leaf: ConditionLeaf, reading: AttributeReading, context: ConditionContext): Judgement {
  const operator = leaf.operator;
  const value = leaf.value;
  if (operator === null) {
    if (reading.kind !== 'boolean') throw new EvaluationError(`\`${leaf.attribute}\` is not a Boolean`);
    return timeless(reading.values.some(Boolean));
  }
  if (leaf.length) {
    // `#files` is GitHub's changed-file count: a rename counts once, though `files` lists both paths.
    const length = leaf.attribute === 'files' ? context.pullRequest.files.length : lengthOf(reading);
    return timeless(compareNumbers(length, operator, integer(value)));
  }
  switch (reading.kind) {
    case 'boolean': {
      if (value.kind !== 'boolean') throw new EvaluationError('expected true or false');
      const equal = reading.values.some((flag) => flag === value.value);
      return timeless(operator === '=' ? equal : !equal);
    }
    case 'integer':
    case 'count':
      return timeless(compareNumbers(reading.value, operator, integer(value)));
    case 'permission': {
      if (value.kind !== 'permission') throw new EvaluationError('expected a permission');
      return timeless(
        compareNumbers(
          SENDER_PERMISSIONS.indexOf(reading.value),
          operator,
          SENDER_PERMISSIONS.indexOf(value.permission),
        ),
      );
    }
    case 'text':
      return timeless(compareTexts(leaf, reading.values, operator, value, context));
    case 'instants':
      return compareInstants(reading.values, operator, value, context.now);
    case 'now':
      return judgeClock(operator, value, context.now);
    default:
      throw new EvaluationError(`\`${leaf.attribute}\` cannot be compared`);
  }
}

function integer(value: LeafValue): number {
  if (value.kind !== 'integer') throw new EvaluationError('expected an integer');
  return value.value;
}

function lengthOf(reading: AttributeReading): number {
  if (reading.kind === 'count') return reading.value;
  if (reading.kind !== 'text') throw new EvaluationError('this attribute has no length');
  // A single text's length is its number of characters (0 when absent); a list's, its number of items.
  if (!reading.list) return reading.values[0] ? [...reading.values[0].text].length : 0;
  return reading.values.length;
}

/** The checks a `check*` condition is about: the one it names, or those on the head its pattern matches. */
function relatedChecks(leaf: ConditionLeaf, context: ConditionContext): string[] {
  if (!leaf.attribute.startsWith('check') || leaf.length || leaf.commit) return [];
  const value = leaf.value;
  if (value.kind === 'text') return [value.text];
  if (value.kind === 'qualified-check') return [value.name];
  const names = [...new Set(context.pullRequest.checks.map((check) => check.name))];
  if (value.kind === 'regex')
    return names.filter((name) => compiledRegex(value.source, value.flags).test(name));
  if (value.kind === 'glob') return names.filter((name) => compiledGlob(value.pattern)(name));
  return [];
}

import picomatch from 'picomatch';
import type { ConditionLeaf, LeafValue } from '../condition-tree';
import { SENDER_PERMISSIONS } from '../syntax/attributes';
import type { Operator } from '../syntax/operators';
import { expandGlob } from '../syntax/values/glob';
import { type ConditionContext, teamKey } from './context';
import { intervalHolds, nextIntervalChange } from './interval-clock';
import { type AttributeReading, readAttribute, type TextItem } from './read-attribute';
import { nextScheduleChange, scheduleHolds } from './schedule-clock';

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

class EvaluationError extends Error {}

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

interface Judgement {
  match: boolean;
  nextEvaluationAt: Date | null;
}

const timeless = (match: boolean): Judgement => ({ match, nextEvaluationAt: null });

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

function compareNumbers(actual: number, operator: Operator, expected: number): boolean {
  switch (operator) {
    case '=':
      return actual === expected;
    case '!=':
      return actual !== expected;
    case '>=':
      return actual >= expected;
    case '>':
      return actual > expected;
    case '<=':
      return actual <= expected;
    case '<':
      return actual < expected;
    default:
      throw new EvaluationError(`\`${operator}\` does not compare numbers`);
  }
}

const compareOrdered = (actual: string, operator: Operator, expected: string): boolean =>
  compareNumbers(actual < expected ? -1 : actual > expected ? 1 : 0, operator, 0);

const regexCache = new Map<string, RegExp>();
const globCache = new Map<string, (path: string) => boolean>();

function compiledRegex(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let regex = regexCache.get(key);
  if (!regex) {
    regex = new RegExp(source, flags);
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(key, regex);
  }
  return regex;
}

function compiledGlob(pattern: string): (path: string) => boolean {
  let matcher = globCache.get(pattern);
  if (!matcher) {
    const expanded = expandGlob(pattern);
    if (!expanded.ok) throw new EvaluationError(expanded.detail);
    matcher = picomatch(expanded.patterns, { dot: true, nobrace: true });
    if (globCache.size > 1000) globCache.clear();
    globCache.set(pattern, matcher);
  }
  return matcher;
}

/**
 * Text against a value. For lists, every operator but `!=` holds when any element matches and `!=`
 * when no element equals the value (an empty list: false, and true for `!=`); a single null value
 * (no milestone) behaves as an empty list. Logins and teams compare without case, as GitHub does.
 */
function compareTexts(
  leaf: ConditionLeaf,
  values: readonly (TextItem | null)[],
  operator: Operator,
  value: LeafValue,
  context: ConditionContext,
): boolean {
  const items = values.filter((item): item is TextItem => item !== null);
  const caseless =
    leaf.attribute === 'author' ||
    leaf.attribute === 'merged-by' ||
    leaf.attribute === 'sender' ||
    leaf.attribute === 'assignee' ||
    leaf.attribute === 'review-requested' ||
    leaf.attribute.endsWith('-reviews-by') ||
    leaf.commit?.field === 'author' ||
    leaf.commit?.field === 'committer';
  const fold = (text: string) => (caseless ? text.toLowerCase() : text);
  if (operator === '!=') return !items.some(itemPredicate(value, context, fold));
  if (operator === '=') return items.some(itemPredicate(value, context, fold));
  if (operator === '~=') {
    if (value.kind !== 'regex') throw new EvaluationError('expected a regular expression');
    const regex = compiledRegex(value.source, value.flags);
    return items.some((item) => regex.test(item.text));
  }
  if (operator === '*=') {
    if (value.kind !== 'glob') throw new EvaluationError('expected a glob');
    const matcher = compiledGlob(value.pattern);
    return items.some((item) => matcher(item.text));
  }
  const expected = textOf(value, context);
  return items.some((item) => compareOrdered(fold(item.text), operator, fold(expected)));
}

function textOf(value: LeafValue, context: ConditionContext): string {
  if (value.kind === 'author') return context.pullRequest.author;
  if (value.kind === 'text') return value.text;
  if (value.kind === 'dequeue-reason') return value.code;
  throw new EvaluationError('expected a text value');
}

function itemPredicate(
  value: LeafValue,
  context: ConditionContext,
  fold: (text: string) => string,
): (item: TextItem) => boolean {
  if (value.kind === 'qualified-check')
    return (item) => item.text === value.name && item.app?.toLowerCase() === value.app.toLowerCase();
  if (value.kind === 'team') {
    const key = teamKey(value.org, value.slug, context.pullRequest.repository.owner);
    const written = `@${key}`;
    const members = context.teams?.[key];
    return (item) => {
      // review-requested lists requested teams as `@org/slug` next to users.
      if (item.text.toLowerCase() === written) return true;
      if (!members) throw new EvaluationError(`the members of team @${key} are not known`);
      return members.some((member) => member.toLowerCase() === item.text.toLowerCase());
    };
  }
  const expected = fold(textOf(value, context));
  return (item) => fold(item.text) === expected;
}

/**
 * Timestamps against an instant or against "N ago". A relative bound moves with the clock, so the
 * verdict may flip when `now - N` passes the attribute's time: that instant is `nextEvaluationAt`.
 */
function compareInstants(
  values: readonly (string | null)[],
  operator: Operator,
  value: LeafValue,
  now: Date,
): Judgement {
  const instants = values.filter((item): item is string => item !== null).map((item) => Date.parse(item));
  if (value.kind === 'instant') {
    const bound = Date.parse(value.iso);
    return timeless(instants.some((instant) => compareNumbers(instant, operator, bound)));
  }
  if (value.kind !== 'relative') throw new EvaluationError('expected a timestamp');
  const bound = now.getTime() - value.milliseconds;
  const match = instants.some((instant) => compareNumbers(instant, operator, bound));
  // `attribute < now - N` turns true once now passes attribute + N (and `>=` turns false then).
  const flips = instants
    .map((instant) => instant + value.milliseconds + (operator === '<' || operator === '>=' ? 1 : 0))
    .filter((flip) => flip > now.getTime());
  return { match, nextEvaluationAt: flips.length > 0 ? new Date(Math.min(...flips)) : null };
}

function judgeClock(operator: Operator, value: LeafValue, now: Date): Judgement {
  if (value.kind === 'schedule') {
    const holds = scheduleHolds(value.schedule, now);
    return {
      match: operator === '=' ? holds : !holds,
      nextEvaluationAt: nextScheduleChange(value.schedule, now),
    };
  }
  if (value.kind === 'interval') {
    const holds = intervalHolds(value.interval, now);
    return {
      match: operator === '=' ? holds : !holds,
      nextEvaluationAt: nextIntervalChange(value.interval, now),
    };
  }
  if (value.kind !== 'instant') throw new EvaluationError('expected a time');
  const bound = Date.parse(value.iso);
  const flip = bound + (operator === '>' || operator === '<=' ? 1 : 0);
  return {
    match: compareNumbers(now.getTime(), operator, bound),
    nextEvaluationAt: flip > now.getTime() ? new Date(flip) : null,
  };
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

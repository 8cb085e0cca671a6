import type { ConditionLeaf, LeafValue } from '../condition-tree';
import { ATTRIBUTES, COMMIT_FIELDS } from '../syntax/attributes';
import type { Operator } from '../syntax/operators';
import { type ConditionContext, teamKey } from './context';
import { compareNumbers, EvaluationError } from './judgement';
import { compiledGlob, compiledRegex } from './pattern-cache';
import type { TextItem } from './read-attribute';

const compareOrdered = (actual: string, operator: Operator, expected: string): boolean =>
  compareNumbers(actual < expected ? -1 : actual > expected ? 1 : 0, operator, 0);

/**
 * Text against a value. For lists, every operator but `!=` holds when any element matches and `!=`
 * when no element equals the value (an empty list: false, and true for `!=`); a single null value
 * (no milestone) behaves as an empty list. Logins and teams compare without case, as GitHub does.
 */
export function compareTexts(
  leaf: ConditionLeaf,
  values: readonly (TextItem | null)[],
  operator: Operator,
  value: LeafValue,
  context: ConditionContext,
): boolean {
  const items = values.filter((item): item is TextItem => item !== null);
  const spec = leaf.commit ? COMMIT_FIELDS[leaf.commit.field] : ATTRIBUTES[leaf.attribute];
  const caseless = spec?.meaning === 'login';
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

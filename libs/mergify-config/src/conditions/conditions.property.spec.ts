import fc from 'fast-check';
import type { ConditionLeaf } from './condition-tree';
import { evaluateConditions } from './evaluation/condition-evaluation';
import { evaluateLeaf } from './evaluation/evaluate-leaf';
import { parseConditions } from './syntax/parse-conditions';
import { pullRequestSnapshotFixture } from './testing/pull-request-snapshot.fixture';

/** Condition-ish text: real attribute and operator spellings mixed with noise. */
const conditionText = fc
  .tuple(
    fc.constantFrom('', '-', '#', '-#', ' - '),
    fc.constantFrom(
      'base',
      'label',
      'files',
      'schedule',
      'created-at',
      'current-datetime',
      'commits[0].author',
      'check-success',
      'number',
      'draft',
      'x',
    ),
    fc.constantFrom('', '=', '!=', '~=', '*=', '>=', '<', ':', '≠', '≤', ' = ', '=='),
    fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        'main',
        '"quoted"',
        "'x",
        '(?i)a',
        '{a,b',
        '**/*.ts',
        'Mon-Fri 09:00-17:00[Europe/Paris]',
        '3 days ago',
        '2026-01-01',
        'XXXX-07-14T14:00/XXXX-07-14T19:00',
        '@org/team',
        '{{ author }}',
        '7',
      ),
    ),
  )
  .map((parts) => parts.join(''));

const conditionValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    conditionText,
    fc.constantFrom(true, false, null, 1, {}),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.record({ and: tie('value') }),
    fc.record({ or: tie('value') }),
    fc.record({ not: tie('value') }),
  ),
})).value;

describe('the condition language, on any input', () => {
  it('parses or refuses without throwing, and every error is located inside the input under the prefix', () => {
    fc.assert(
      fc.property(conditionValue, (value) => {
        const parsed = parseConditions(value, 'rules[0].conditions');
        if (parsed.ok) return;
        expect(parsed.errors.length).toBeGreaterThan(0);
        for (const error of parsed.errors) {
          expect(error.location.slice(0, 3)).toEqual(['rules', 0, 'conditions']);
          expect(error.path.startsWith('rules[0].conditions')).toBe(true);
          expect(error.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('judges whatever it accepts without throwing; `-` flips the verdict unless the condition cannot be judged', () => {
    const context = {
      pullRequest: pullRequestSnapshotFixture({ labels: ['a'], checks: [] }),
      now: new Date('2026-06-10T12:00:00Z'),
    };
    fc.assert(
      fc.property(conditionText, (text) => {
        const parsed = parseConditions(text);
        if (!parsed.ok) return;
        const evaluation = evaluateConditions(parsed.condition, context);
        expect(typeof evaluation.match).toBe('boolean');
        const leaf = parsed.condition as ConditionLeaf;
        if (leaf.kind !== 'leaf' || leaf.negated) return;
        const plain = evaluateLeaf(leaf, context);
        const negated = evaluateLeaf({ ...leaf, negated: true }, context);
        if (plain.error === null) expect(negated.match).toBe(!plain.match);
        else expect(negated.match).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

import type { ConditionNode } from '../condition-tree';
import { parseConditions } from '../syntax/parse-conditions';
import { pullRequestSnapshotFixture } from '../testing/pull-request-snapshot.fixture';
import { evaluateConditions } from './condition-evaluation';
import type { ConditionContext } from './context';
import { renderConditionMarkdown } from './markdown';

const NOW = new Date('2026-06-10T12:00:00Z'); // a Wednesday

const tree = (value: unknown): ConditionNode => {
  const parsed = parseConditions(value, 'conditions');
  if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
  return parsed.condition;
};

const contextFor = (number: number, labels: string[]): ConditionContext => ({
  pullRequest: pullRequestSnapshotFixture({ number, labels, updatedAt: '2026-06-09T12:00:00Z' }),
  now: NOW,
});

describe('evaluating a condition tree', () => {
  it('answers the ConditionEvaluation shape, leaf by leaf', () => {
    const evaluation = evaluateConditions(tree(['base=main', 'label=ready']), contextFor(7, []));
    expect(evaluation).toEqual({
      match: false,
      label: 'all of',
      description: null,
      documentation_url: null,
      schedule: null,
      evaluations: [
        {
          pull_request: 7,
          match: false,
          evaluation_error: null,
          related_checks: [],
          next_evaluation_at: null,
        },
      ],
      subconditions: [
        {
          match: true,
          label: 'base=main',
          description: null,
          documentation_url: null,
          schedule: null,
          subconditions: [],
          evaluations: [
            {
              pull_request: 7,
              match: true,
              evaluation_error: null,
              related_checks: [],
              next_evaluation_at: null,
            },
          ],
        },
        expect.objectContaining({ match: false, label: 'label=ready' }),
      ],
    });
  });

  it.each([
    [['label=a', 'label=b'], ['a', 'b'], true],
    [['label=a', 'label=b'], ['a'], false],
    [[{ or: ['label=a', 'label=b'] }], ['b'], true],
    [[{ or: ['label=a', 'label=b'] }], ['c'], false],
    [[{ not: 'label=a' }], ['a'], false],
    [[{ not: { or: ['label=a', 'label=b'] } }], ['c'], true],
    [
      [{ and: ['label=a', { or: ['label=b', { not: { and: ['label=c', 'label=d'] } }] }] }],
      ['a', 'c', 'd'],
      false,
    ],
    [[{ and: ['label=a', { or: ['label=b', { not: { and: ['label=c', 'label=d'] } }] }] }], ['a', 'c'], true],
    [[], [], true],
    [true, [], true],
  ])('%j with labels %j → %s', (conditions, labels, expected) =>
    expect(evaluateConditions(tree(conditions), contextFor(1, labels)).match).toBe(expected),
  );

  it('judges a batch pull request by pull request; a node matches when it matches for all', () => {
    const evaluation = evaluateConditions(tree(['label=ready']), [
      contextFor(1, ['ready']),
      contextFor(2, []),
    ]);
    expect(evaluation.match).toBe(false);
    expect(evaluation.subconditions[0]!.evaluations.map((e) => [e.pull_request, e.match])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('gives a schedule leaf its schedule and when it will change, and a group the earliest change below it', () => {
    const evaluation = evaluateConditions(
      tree(['schedule=Mon-Fri 09:00-17:00[Europe/Paris]', { or: ['updated-at<2 days ago', 'label=x'] }]),
      contextFor(1, []),
    );
    const [schedule, or] = evaluation.subconditions;
    expect(schedule!.schedule?.timezone).toBe('Europe/Paris');
    expect(schedule!.evaluations[0]!.next_evaluation_at).toBe('2026-06-10T15:01:00.000Z');
    expect(or!.evaluations[0]!.next_evaluation_at).toBe('2026-06-11T12:00:00.001Z');
    expect(evaluation.evaluations[0]!.next_evaluation_at).toBe('2026-06-10T15:01:00.000Z');
  });

  it('reports a condition that cannot be judged as not matching, with the reason', () => {
    const evaluation = evaluateConditions(tree(['-sender=bob']), contextFor(1, []));
    expect(evaluation.subconditions[0]!.evaluations[0]).toMatchObject({
      match: false,
      evaluation_error: '`sender` is only known when checking a command',
    });
  });
});

describe('markdown summary', () => {
  it('prints boxes, blocks with indented children, and evaluation errors', () => {
    const evaluation = evaluateConditions(
      tree([
        'base=main',
        { or: ['label=a', { not: 'draft' }] },
        '#approved-reviews-by>=2',
        'author=@acme/ghosts',
      ]),
      contextFor(1, []),
    );
    expect(renderConditionMarkdown(evaluation)).toBe(
      [
        '- [X] `base=main`',
        '- [X] any of:',
        '  - [ ] `label=a`',
        '  - [X] not:',
        '    - [ ] `draft`',
        '- [ ] `#approved-reviews-by>=2`',
        '- [ ] `author=@acme/ghosts` ⚠️ the members of team @acme/ghosts are not known',
      ].join('\n'),
    );
  });

  it('prints a line per pull request under a condition on a batch, but checks and time once', () => {
    const evaluation = evaluateConditions(tree(['label=ready', 'check-success=ci', 'schedule=Mon-Fri']), [
      contextFor(1, ['ready']),
      contextFor(2, []),
    ]);
    expect(renderConditionMarkdown(evaluation)).toBe(
      [
        '- [ ] `label=ready`',
        '  - [X] #1',
        '  - [ ] #2',
        '- [ ] `check-success=ci`',
        '- [X] `schedule=Mon-Fri`',
      ].join('\n'),
    );
  });

  it('keeps the header of the root when asked', () => {
    const evaluation = evaluateConditions(tree(['base=main']), contextFor(1, []));
    expect(renderConditionMarkdown(evaluation, { flattenRoot: false })).toBe(
      '- [X] all of:\n  - [X] `base=main`',
    );
  });
});

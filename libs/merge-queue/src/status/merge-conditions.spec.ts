import type { CheckOnHead } from '@switchyard/code-host';
import { validateConfiguration, type QueueRuleConfiguration } from '@switchyard/config';
import { pullRequestSnapshotFixture } from '@switchyard/config/conditions/testing/pull-request-snapshot.fixture';
import { conditionEvaluationProblems } from './testing/spec-shapes';
import { mergeConditionsEvaluation } from './merge-conditions';

const ruleOf = (yaml: string): QueueRuleConfiguration => {
  const validation = validateConfiguration(yaml);
  if (!validation.valid) throw new Error(JSON.stringify(validation.errors));
  return validation.configuration.queueRules[0]!;
};

const check = (name: string, state: CheckOnHead['state']): CheckOnHead => ({
  name,
  appSlug: null,
  source: 'status',
  state,
  detailsUrl: null,
  startedAt: null,
  completedAt: null,
});

const now = new Date('2026-05-09T10:00:00Z');

describe('mergeConditionsEvaluation', () => {
  const rule = ruleOf(`queue_rules:
  - name: default
    merge_conditions:
      - check-success=tests
      - check-success=linters
      - label!=hold
`);

  it("judges every batch pull request with the draft's checks standing in for its own", () => {
    const draft = pullRequestSnapshotFixture({
      number: 900,
      checks: [check('tests', 'success'), check('linters', 'pending')],
    });
    const own = [
      pullRequestSnapshotFixture({ number: 1, checks: [check('linters', 'success')] }),
      pullRequestSnapshotFixture({ number: 2, labels: ['hold'] }),
    ];
    const evaluation = mergeConditionsEvaluation(rule, draft, own, now)!;
    expect(conditionEvaluationProblems(evaluation as unknown as Record<string, unknown>, 'e')).toEqual([]);
    expect(evaluation.match).toBe(false);
    expect(evaluation.subconditions.map((c) => [c.label, c.match])).toEqual([
      ['check-success=tests', true],
      ['check-success=linters', false],
      ['label!=hold', false],
    ]);
    // Non-check attributes are each pull request's own.
    expect(evaluation.subconditions[2]!.evaluations.map((e) => [e.pull_request, e.match])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('matches once the draft reports what the conditions ask', () => {
    const draft = pullRequestSnapshotFixture({
      number: 900,
      checks: [check('tests', 'success'), check('linters', 'success')],
    });
    const own = [pullRequestSnapshotFixture({ number: 1 })];
    expect(mergeConditionsEvaluation(rule, draft, own, now)?.match).toBe(true);
  });

  it('is null for a rule without merge conditions, or no rule', () => {
    const draft = pullRequestSnapshotFixture({ number: 900 });
    const plain = ruleOf('queue_rules:\n  - name: default\n');
    expect(mergeConditionsEvaluation(plain, draft, [], now)).toBeNull();
    expect(mergeConditionsEvaluation(undefined, draft, [], now)).toBeNull();
  });
});

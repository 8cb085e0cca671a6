import type { CheckOnHead } from '@switchyard/code-host';
import { validateConfiguration, type QueueRuleConfiguration } from '@switchyard/mergify-config';
import { pullRequestSnapshotFixture } from '@switchyard/mergify-config/conditions/testing/pull-request-snapshot.fixture';
import { conditionEvaluationProblems } from './testing/spec-shapes';
import { judgeMergeConditions } from './merge-conditions';

const ruleOf = (yaml: string): QueueRuleConfiguration => {
  const validation = validateConfiguration(yaml, new Date('2026-11-28T00:00:00Z'));
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

describe('judgeMergeConditions', () => {
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
    const { evaluation, waitingSchedule } = judgeMergeConditions(rule, draft, own, now)!;
    expect(waitingSchedule).toBe(false);
    expect(conditionEvaluationProblems(evaluation as unknown as Record<string, unknown>, 'e')).toEqual([]);
    expect(evaluation.match).toBe(false);
    expect(
      evaluation.subconditions.map((c: { label: string; match: boolean }) => [c.label, c.match]),
    ).toEqual([
      ['check-success=tests', true],
      ['check-success=linters', false],
      ['label!=hold', false],
    ]);
    // Non-check attributes are each pull request's own.
    expect(
      evaluation.subconditions[2]!.evaluations.map((e: { pull_request: number; match: boolean }) => [
        e.pull_request,
        e.match,
      ]),
    ).toEqual([
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
    expect(judgeMergeConditions(rule, draft, own, now)).toMatchObject({
      evaluation: { match: true },
      waitingSchedule: false,
    });
  });

  it('is null for a rule without merge conditions, or no rule', () => {
    const draft = pullRequestSnapshotFixture({ number: 900 });
    const plain = ruleOf('queue_rules:\n  - name: default\n');
    expect(judgeMergeConditions(plain, draft, [], now)).toBeNull();
    expect(judgeMergeConditions(undefined, draft, [], now)).toBeNull();
  });

  describe('waiting for a schedule (BatchStatus waiting_schedule)', () => {
    const scheduled = ruleOf(`queue_rules:
  - name: default
    merge_conditions:
      - check-success=tests
      - schedule=Mon-Fri
`);
    const saturday = new Date('2026-05-09T10:00:00Z');
    const monday = new Date('2026-05-11T10:00:00Z');
    const draftWith = (state: CheckOnHead['state']) =>
      pullRequestSnapshotFixture({ number: 900, checks: [check('tests', state)] });
    const own = [pullRequestSnapshotFixture({ number: 1 })];

    it('is when every condition but the schedule holds', () => {
      expect(judgeMergeConditions(scheduled, draftWith('success'), own, saturday)).toMatchObject({
        evaluation: { match: false },
        waitingSchedule: true,
      });
    });

    it('is not while another condition fails too, nor once the schedule opens', () => {
      expect(judgeMergeConditions(scheduled, draftWith('pending'), own, saturday)?.waitingSchedule).toBe(
        false,
      );
      expect(judgeMergeConditions(scheduled, draftWith('success'), own, monday)).toMatchObject({
        evaluation: { match: true },
        waitingSchedule: false,
      });
    });
  });
});

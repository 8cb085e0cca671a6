import type { CheckOnHead } from '@switchyard/code-host';
import { validateConfiguration } from '@switchyard/mergify-config';
import { pullRequestSnapshotFixture } from '@switchyard/mergify-config/conditions';
import { evaluateMergeConditions, judgeBatchChecks, QUEUE_CHECK_NAME } from './checks-verdict';

const NOW = new Date('2026-07-01T10:00:00Z');

const check = (name: string, state: CheckOnHead['state']): CheckOnHead => ({
  name,
  appSlug: 'ci',
  source: 'check-run',
  state,
  detailsUrl: `https://ci.example/${name}`,
  startedAt: '2026-07-01T09:58:00Z',
  completedAt: state === 'pending' ? null : '2026-07-01T09:59:00Z',
});

const draft = (...checks: CheckOnHead[]) => pullRequestSnapshotFixture({ number: 900, draft: true, checks });

const ruleWith = (mergeConditions: string[] | null) => {
  const lines = ['queue_rules:', '  - name: default'];
  if (mergeConditions) lines.push(`    merge_conditions: [${mergeConditions.join(', ')}]`);
  const validation = validateConfiguration(lines.join('\n'), new Date('2026-11-28T00:00:00Z'));
  if (!validation.valid) throw new Error('invalid test configuration');
  return validation.configuration.queueRules[0]!;
};

describe('checks verdict on a batch (without merge conditions)', () => {
  it('passes once every check succeeded, the queue’s own check run aside', () => {
    expect(
      judgeBatchChecks(null, draft(check('ci', 'success'), check(QUEUE_CHECK_NAME, 'pending')), [], NOW),
    ).toEqual({
      conclusion: 'success',
    });
  });

  it('fails as soon as one check failed, naming the failing ones', () => {
    expect(
      judgeBatchChecks(null, draft(check('ci', 'pending'), check('lint', 'timed_out')), [], NOW),
    ).toEqual({
      conclusion: 'failure',
      unsuccessfulChecks: [
        {
          name: 'lint',
          description: 'lint ended with timed_out',
          url: 'https://ci.example/lint',
          detailsUrl: 'https://ci.example/lint',
          state: 'timed_out',
          avatarUrl: null,
        },
      ],
    });
  });

  it('waits while a check runs, or before any check was reported', () => {
    expect(judgeBatchChecks(null, draft(check('ci', 'success'), check('lint', 'pending')), [], NOW)).toEqual({
      conclusion: 'pending',
    });
    expect(judgeBatchChecks(null, draft(), [], NOW)).toEqual({ conclusion: 'pending' });
  });
});

describe('checks verdict on a batch (merge conditions, two-step CI)', () => {
  const rule = ruleWith(['check-success=ci']);
  const member = pullRequestSnapshotFixture({ number: 7 });

  it('passes when the merge conditions hold for every pull request with the draft’s checks, whatever else failed', () => {
    expect(
      judgeBatchChecks(rule, draft(check('ci', 'success'), check('docs', 'failure')), [member], NOW),
    ).toEqual({
      conclusion: 'success',
    });
  });

  it('fails on a failing check while they do not hold, and waits otherwise, even with every check done', () => {
    expect(judgeBatchChecks(rule, draft(check('ci', 'failure')), [member], NOW)).toMatchObject({
      conclusion: 'failure',
    });
    expect(judgeBatchChecks(rule, draft(check('other', 'success')), [member], NOW)).toEqual({
      conclusion: 'pending',
    });
  });

  it('evaluates nothing for a rule without merge conditions', () => {
    expect(evaluateMergeConditions(ruleWith(null), draft(), [member], NOW)).toBeNull();
    expect(evaluateMergeConditions(rule, draft(check('ci', 'success')), [], NOW)?.match).toBe(true);
  });
});

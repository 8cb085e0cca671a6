import { type CommitOutcome } from './commit-outcome';
import { CommitHistory } from './commit-history';
import { confidenceOf } from './health-rules';
import { brokenScore, healthVerdict, impactOf } from './health-verdict';

const commit = (passed: number, failed: number, skipped = 0, sha = `c${Math.random()}`): CommitOutcome => ({
  commitSha: sha,
  passed,
  failed,
  skipped,
});

describe('health verdict', () => {
  it('is flaky when one commit saw a failure and a pass, however the other commits went', () => {
    const verdict = healthVerdict([commit(1, 0), commit(1, 1), commit(1, 0)]);
    expect(verdict.status).toBe('flaky');
    expect(verdict.flakinessRatio).toBeCloseTo(1 / 3);
    expect(verdict.failedExecutionsImpact).toBe('high'); // 1 failure in 4
  });

  it('does not call a skip beside a pass a flake', () => {
    expect(healthVerdict([commit(1, 0, 1)]).status).toBe('healthy');
  });

  it('is broken after two failed commits in a row, not after one', () => {
    expect(healthVerdict([commit(1, 0), commit(1, 0), commit(0, 1)]).status).toBe('healthy');
    expect(healthVerdict([commit(1, 0), commit(0, 1), commit(0, 1)]).status).toBe('broken');
    expect(healthVerdict([commit(0, 1)]).status).toBe('healthy');
  });

  it('weighs recent commits more: twenty passes then two failures is broken, a pass after them heals', () => {
    const passes = Array.from({ length: 20 }, () => commit(1, 0));
    expect(brokenScore([...passes, commit(0, 1), commit(0, 1)])).toBeGreaterThanOrEqual(0.7);
    expect(healthVerdict([...passes, commit(0, 1), commit(0, 1), commit(1, 0)]).status).toBe('healthy');
  });

  it('prefers broken to flaky', () => {
    expect(healthVerdict([commit(1, 1), commit(0, 2), commit(0, 1)]).status).toBe('broken');
  });

  it('forgets a flake after the 50-commit window', () => {
    const later = Array.from({ length: 50 }, () => commit(1, 0));
    expect(healthVerdict([commit(1, 1), ...later.slice(1)]).status).toBe('flaky');
    expect(healthVerdict([commit(1, 1), ...later]).status).toBe('healthy');
  });

  it('buckets the failed share into low, medium and high, and gives healthy tests none', () => {
    expect([impactOf(0.01), impactOf(0.05), impactOf(0.19), impactOf(0.2)]).toEqual([
      'low',
      'medium',
      'medium',
      'high',
    ]);
    expect(healthVerdict([commit(3, 0)]).failedExecutionsImpact).toBeNull();
  });

  it('computes the ratios over passes and failures only', () => {
    expect(healthVerdict([commit(3, 1, 4)])).toMatchObject({
      successRatio: 0.75,
      failureRatio: 0.25,
      executionsCount: 8,
    });
    expect(healthVerdict([])).toMatchObject({
      status: 'healthy',
      successRatio: 0,
      failureRatio: 0,
      flakinessRatio: 0,
    });
  });

  it('builds commits from executions in arrival order (a retry joins its commit)', () => {
    const history = new CommitHistory();
    history.record('a', 'failed');
    history.record('b', 'passed');
    history.record('a', 'passed');
    expect(history.commits()).toEqual([
      { commitSha: 'a', passed: 1, failed: 1, skipped: 0 },
      { commitSha: 'b', passed: 1, failed: 0, skipped: 0 },
    ]);
    expect(history.verdict().status).toBe('flaky');
  });

  it('rates the confidence in a verdict by the executions collected: low, then medium from 10, high from 30', () => {
    expect([0, 9, 10, 29, 30, 500].map(confidenceOf)).toEqual([
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
    ]);
  });
});

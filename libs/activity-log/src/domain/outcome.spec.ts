import { LOG_EVENT_TYPES } from '@switchyard/activity-log-contract';
import { OUTCOMES, deriveOutcome } from './outcome';

describe('outcome', () => {
  it('has a rule for every event type of the spec', () => {
    for (const type of LOG_EVENT_TYPES) expect(OUTCOMES).toContain(deriveOutcome(type, {}));
  });

  it.each([
    ['action.queue.enter', {}, 'pending'],
    ['action.queue.checks_start', {}, 'pending'],
    ['action.queue.merged', {}, 'success'],
    ['action.queue.checks.change', {}, 'neutral'],
    ['action.queue.change', {}, 'neutral'],
    ['action.dequeue', {}, 'failure'],
    ['action.label', {}, 'success'],
    ['command.queue', {}, 'neutral'],
    ['queue.pause.create', {}, 'neutral'],
    ['scheduled_freeze.delete', {}, 'neutral'],
  ])('%s is %s', (type, metadata, outcome) => {
    expect(deriveOutcome(type, metadata)).toBe(outcome);
  });

  it('a leave is a success only when the pull request merged', () => {
    expect(deriveOutcome('action.queue.leave', { merged: true })).toBe('success');
    expect(deriveOutcome('action.queue.leave', { merged: false })).toBe('failure');
  });

  const checksEnd = (aborted: boolean, status: string, conclusion: string, timedOut = false) => ({
    aborted,
    abort_status: status,
    speculative_check_pull_request: { checks_conclusion: conclusion, checks_timed_out: timedOut },
  });

  it.each([
    [checksEnd(true, 'REEMBARKED', 'cancelled'), 'neutral'],
    [checksEnd(true, 'DEFINITIVE', 'cancelled'), 'failure'],
    [checksEnd(false, 'DEFINITIVE', 'success'), 'success'],
    [checksEnd(false, 'DEFINITIVE', 'neutral'), 'success'],
    [checksEnd(false, 'DEFINITIVE', 'skipped'), 'success'],
    [checksEnd(false, 'DEFINITIVE', 'failure'), 'failure'],
    [checksEnd(false, 'DEFINITIVE', 'timed_out'), 'failure'],
    [checksEnd(false, 'DEFINITIVE', 'stale'), 'failure'],
    [checksEnd(false, 'DEFINITIVE', 'success', true), 'failure'],
    [checksEnd(false, 'DEFINITIVE', 'pending'), 'pending'],
  ])('checks_end %j is %s', (metadata, outcome) => {
    expect(deriveOutcome('action.queue.checks_end', metadata)).toBe(outcome);
  });

  it('a bisection end says whether the culprit was found', () => {
    const end = (culprit: boolean, exhausted: boolean) =>
      deriveOutcome('action.queue.batch_bisection_end', {
        culprit_found: culprit,
        max_failure_resolution_reached: exhausted,
      });
    expect(end(true, false)).toBe('success');
    expect(end(false, false)).toBe('neutral');
    expect(end(false, true)).toBe('failure');
  });

  it('a posted check carries its conclusion', () => {
    expect(deriveOutcome('action.post_check', { conclusion: 'success' })).toBe('success');
    expect(deriveOutcome('action.post_check', { conclusion: 'failure' })).toBe('failure');
    expect(deriveOutcome('action.post_check', { conclusion: 'pending' })).toBe('pending');
    expect(deriveOutcome('action.post_check', { conclusion: 'neutral' })).toBe('neutral');
  });

  it('a backport or copy with conflicts is a failure', () => {
    expect(deriveOutcome('action.backport', { conflicts: true })).toBe('failure');
    expect(deriveOutcome('action.copy', { conflicts: false })).toBe('success');
  });

  it('a job retry refused for quota is a failure', () => {
    expect(deriveOutcome('ci_insights.job_retried', { outcome: 'retried' })).toBe('success');
    expect(deriveOutcome('ci_insights.job_retried', { outcome: 'skipped_quota_exceeded' })).toBe('failure');
  });

  it('a type the table does not know is neutral', () => {
    expect(deriveOutcome('action.something_new', {})).toBe('neutral');
  });
});

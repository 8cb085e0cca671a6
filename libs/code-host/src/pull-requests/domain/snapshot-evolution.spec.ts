import type { CheckOnHead, PullRequestSnapshot } from '../../port/pull-request-snapshot';
import { withCheckReport, withRead } from './snapshot-evolution';

const HEAD = 'a'.repeat(40);

const check = (overrides: Partial<CheckOnHead> = {}): CheckOnHead => ({
  name: 'ci',
  appSlug: 'sandbox-ci',
  source: 'check-run',
  state: 'pending',
  detailsUrl: null,
  startedAt: '2026-11-28T10:00:00Z',
  completedAt: null,
  ...overrides,
});

const snapshot = (checks: CheckOnHead[], head = HEAD): PullRequestSnapshot =>
  ({ number: 7, head: { sha: head }, checks }) as unknown as PullRequestSnapshot;

const read = (of: PullRequestSnapshot) => ({
  repository: 'acme/widgets',
  number: 7,
  snapshot: of,
  reason: 'synchronize',
  at: '2026-11-28T10:00:02Z',
});

const completed = check({ state: 'success', completedAt: '2026-11-28T10:00:01Z' });

describe('a read of a pull request after the facts it raced with', () => {
  it('keeps a check that completed while the read was on its way', () => {
    // The read left before CI completed; the completion fact was recorded first.
    const known = withCheckReport(snapshot([check()]), {
      repository: 'acme/widgets',
      headSha: HEAD,
      checkRunId: 1,
      check: completed,
      pullRequests: [7],
    } as never);
    expect(withRead(known, read(snapshot([check()]))).checks).toEqual([completed]);
  });

  it('takes a re-run that started after the known completion', () => {
    const rerun = check({ startedAt: '2026-11-28T10:05:00Z' });
    expect(withRead(snapshot([completed]), read(snapshot([rerun]))).checks).toEqual([rerun]);
  });

  it('takes the read whole when the head moved', () => {
    const other = snapshot([check()], 'b'.repeat(40));
    expect(withRead(snapshot([completed]), read(other))).toBe(other);
  });

  it('keeps checks only facts have shown, and takes the read for the others', () => {
    const status = check({ name: 'lint', source: 'status', appSlug: null, state: 'success' });
    const fromRead = check({ name: 'build', state: 'failure', completedAt: '2026-11-28T10:00:01Z' });
    expect(withRead(snapshot([status]), read(snapshot([fromRead]))).checks).toEqual([fromRead, status]);
  });
});

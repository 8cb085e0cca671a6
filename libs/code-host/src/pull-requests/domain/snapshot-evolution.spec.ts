import type { CheckOnHead, PullRequestSnapshot } from '../../port/pull-request-snapshot';
import { withCheckReport, withPullRequestChange, withRead } from './snapshot-evolution';

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

const snapshot = (
  checks: CheckOnHead[],
  head = HEAD,
  overrides: Partial<PullRequestSnapshot> = {},
): PullRequestSnapshot =>
  ({
    number: 7,
    head: { ref: 'feature', sha: head },
    base: { ref: 'main', sha: 'c'.repeat(40) },
    labels: [],
    reviews: [],
    files: [],
    commits: [],
    commitsBehind: null,
    mergeable: null,
    mergeableState: 'unknown',
    updatedAt: '2026-11-28T10:00:00Z',
    checks,
    ...overrides,
  }) as unknown as PullRequestSnapshot;

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

  it('takes the read whole when the head moved since what is known', () => {
    const other = snapshot([check()], 'b'.repeat(40), { updatedAt: '2026-11-28T10:00:05Z' });
    expect(withRead(snapshot([completed]), read(other))).toBe(other);
  });

  it('keeps checks only facts have shown, and takes the read for the others', () => {
    const status = check({ name: 'lint', source: 'status', appSlug: null, state: 'success' });
    const fromRead = check({ name: 'build', state: 'failure', completedAt: '2026-11-28T10:00:01Z' });
    expect(withRead(snapshot([status]), read(snapshot([fromRead]))).checks).toEqual([fromRead, status]);
  });
});

describe('a read sent before a change whose fact was recorded first', () => {
  const file = { filename: 'web/p3.txt', status: 'added' } as unknown as PullRequestSnapshot['files'][number];
  // Opened at 10:00:00; the read leaves; a label goes on at 10:00:00.7 and its fact is recorded; then the read.
  const labelled = snapshot([], HEAD, { labels: ['ready'] });
  const sentBefore = snapshot([], HEAD, { files: [file], mergeable: true, mergeableState: 'clean' });

  it('keeps the label the fact brought, and adds what only the read tells', () => {
    const after = withRead(labelled, read(sentBefore));
    expect(after.labels).toEqual(['ready']);
    expect(after.files).toEqual([file]);
    expect(after.mergeable).toBe(true);
    expect(after.mergeableState).toBe('clean');
  });

  it('keeps what the facts told when the read is from an earlier second', () => {
    const later = snapshot([], HEAD, { labels: ['ready'], updatedAt: '2026-11-28T10:00:03Z' });
    expect(withRead(later, read(sentBefore)).labels).toEqual(['ready']);
  });

  it('keeps the known head when the read shows an older one', () => {
    const pushed = snapshot([], 'b'.repeat(40), { updatedAt: '2026-11-28T10:00:03Z' });
    expect(withRead(pushed, read(sentBefore))).toBe(pushed);
  });

  it('keeps a review recorded as a fact, and adds the ones only the read shows', () => {
    const review = (id: number, state: string) =>
      ({
        id,
        author: 'octocat',
        state,
        submittedAt: null,
        commitId: HEAD,
      }) as PullRequestSnapshot['reviews'][number];
    const known = snapshot([], HEAD, { reviews: [review(1, 'DISMISSED')] });
    const fromRead = snapshot([], HEAD, { reviews: [review(1, 'APPROVED'), review(2, 'APPROVED')] });
    expect(withRead(known, read(fromRead)).reviews).toEqual([review(1, 'DISMISSED'), review(2, 'APPROVED')]);
  });

  it('takes the read whole, labels and all, when the pull request was updated after what is known', () => {
    const newer = snapshot([], HEAD, { labels: [], updatedAt: '2026-11-28T10:00:02Z' });
    expect(withRead(labelled, read(newer))).toBe(newer);
  });

  it('takes where the base branch stands from the read, with how far behind and mergeability', () => {
    const baseMoved = snapshot([], HEAD, {
      base: { ref: 'main', sha: 'd'.repeat(40) },
      commitsBehind: 2,
      mergeable: true,
      mergeableState: 'behind',
    } as never);
    const after = withRead(labelled, read(baseMoved));
    expect([after.base.sha, after.commitsBehind, after.mergeableState]).toEqual([
      'd'.repeat(40),
      2,
      'behind',
    ]);
    expect(after.labels).toEqual(['ready']);
  });

  it('keeps the known base branch when the read is of another one (an edit whose fact came first)', () => {
    const otherBase = snapshot([], HEAD, {
      ...sentBefore,
      base: { ref: 'release', sha: 'd'.repeat(40) },
    } as never);
    const after = withRead(labelled, read(otherBase));
    expect([after.base.ref, after.mergeable]).toEqual(['main', null]);
  });
});

describe('a webhook delivered out of order', () => {
  const change = (action: string, of: PullRequestSnapshot) => ({
    repository: 'acme/widgets',
    number: 7,
    action,
    pullRequest: of,
    label: null,
    sender: 'octocat',
  });
  const labelled = snapshot([], HEAD, { labels: ['ready'], updatedAt: '2026-11-28T10:00:04Z' });

  it('changes nothing when its payload is from an earlier second than what is known', () => {
    const opened = snapshot([], HEAD, { labels: [], updatedAt: '2026-11-28T10:00:00Z' });
    expect(withPullRequestChange(labelled, change('opened', opened))).toBe(labelled);
  });

  it('applies a payload from the same second, in the order the facts were recorded', () => {
    const unlabelled = snapshot([], HEAD, { labels: [], updatedAt: '2026-11-28T10:00:04Z' });
    expect(withPullRequestChange(labelled, change('unlabeled', unlabelled)).labels).toEqual([]);
  });
});

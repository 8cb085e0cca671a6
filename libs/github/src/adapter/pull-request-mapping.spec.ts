import { snapshotFromPullRequest, type GitHubPullRequest } from './pull-request-mapping';

const repository = { owner: 'acme', name: 'widgets', fullName: 'acme/widgets', defaultBranch: 'main' };
const branch = (ref: string, sha: string) => ({
  ref,
  sha,
  repo: { full_name: 'acme/widgets', name: 'widgets', owner: { login: 'acme' } },
});

const pull = (change: Partial<GitHubPullRequest>): GitHubPullRequest => ({
  number: 7,
  title: 'Add widgets',
  user: { login: 'alice', id: 4242 },
  state: 'open',
  locked: false,
  base: branch('main', 'b'.repeat(40)),
  head: branch('feature', 'h'.repeat(40)),
  labels: [],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  closed_at: null,
  merged_at: null,
  ...change,
});

describe('snapshotFromPullRequest', () => {
  it("keeps the author's id and the labels' ids, colors and default flags beside their names", () => {
    const snapshot = snapshotFromPullRequest(
      pull({
        labels: [
          { id: 11, name: 'bug', color: 'd73a4a', default: true },
          { id: 12, name: 'queued', color: '0e8a16', default: false },
        ],
      }),
      repository,
    );
    expect(snapshot.author).toBe('alice');
    expect(snapshot.authorId).toBe(4242);
    expect(snapshot.labels).toEqual(['bug', 'queued']);
    expect(snapshot.labelDetails).toEqual([
      { id: 11, name: 'bug', color: 'd73a4a', default: true },
      { id: 12, name: 'queued', color: '0e8a16', default: false },
    ]);
  });

  it('leaves the author id out when the payload has no user, and labels without an id out of the details', () => {
    const snapshot = snapshotFromPullRequest(pull({ user: null, labels: [{ name: 'bug' }] }), repository);
    expect(snapshot.author).toBe('ghost');
    expect(snapshot).not.toHaveProperty('authorId');
    expect(snapshot.labels).toEqual(['bug']);
    expect(snapshot.labelDetails).toEqual([]);
  });
});

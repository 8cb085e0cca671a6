import type { PullRequestSnapshot } from '@switchyard/code-host';

/**
 * A plausible open pull request for specs (conditions, freezes, simulator), with every field set;
 * override what the test is about.
 */
export function pullRequestSnapshotFixture(
  overrides: Partial<PullRequestSnapshot> = {},
): PullRequestSnapshot {
  return {
    repository: { owner: 'acme', name: 'rocket', fullName: 'acme/rocket', defaultBranch: 'main' },
    number: 42,
    title: 'Add the launch checklist',
    body: 'Adds the checklist.',
    author: 'alice',
    state: 'open',
    merged: false,
    mergedBy: null,
    mergeCommitSha: null,
    draft: false,
    locked: false,
    base: { ref: 'main', sha: 'b'.repeat(40), repositoryFullName: 'acme/rocket' },
    head: { ref: 'feature/checklist', sha: 'h'.repeat(40), repositoryFullName: 'acme/rocket' },
    milestone: null,
    labels: [],
    assignees: [],
    requestedReviewers: [],
    requestedTeams: [],
    reviews: [],
    files: [],
    commits: [],
    commitsBehind: 0,
    mergeable: true,
    mergeableState: 'clean',
    checks: [],
    createdAt: '2026-05-01T10:00:00Z',
    updatedAt: '2026-05-02T10:00:00Z',
    closedAt: null,
    mergedAt: null,
    ...overrides,
  };
}

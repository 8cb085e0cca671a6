/**
 * How the intake uses a value it reads: `true` keeps it as it is (text, a flag, an id); `instant`
 * reads it as a point in time; `number` is a pull or issue number (a PostgreSQL integer in the read
 * models); `full_name` is an `owner/name` that every stream and /v1 route keys a repository by;
 * `optional` is kept as it is when present, and may be missing or null though GitHub's schema
 * requires it, because GitHub's own payloads leave it out (the reader falls back).
 */
export type ReadLeaf = true | 'instant' | 'number' | 'full_name' | 'optional';

/**
 * What the intake reads of each delivery it records (facts-of-delivery.ts and the pull-request
 * mapping it uses), field by field: a leaf is a value, an object its fields, a one-element array
 * the fields of each item. The schemas that guard the door are GitHub's published ones cut down
 * to these fields (published-schema-cut.ts), so a field the intake does not read never refuses a
 * delivery, and one it reads is checked before anything is appended. Keep it in step with the
 * readers: a field read but not listed here reaches the facts unchecked.
 */
export type ReadTree = ReadLeaf | { readonly [field: string]: ReadTree } | readonly [ReadTree];

const repository = {
  full_name: 'full_name',
  name: true,
  owner: { login: true },
  default_branch: true,
} as const;
const sender = { login: true } as const;
const branch = { ref: true, sha: true, repo: { full_name: 'full_name' } } as const;

const pullRequest = {
  number: 'number',
  title: true,
  body: true,
  user: { login: true, id: true },
  state: true,
  merged: true,
  merged_by: { login: true },
  merge_commit_sha: true,
  draft: true,
  locked: true,
  base: branch,
  head: branch,
  milestone: { title: true },
  labels: [{ id: true, name: true, color: true, default: true }],
  assignees: [{ login: true }],
  requested_reviewers: [{ login: true }],
  requested_teams: [{ slug: true }],
  mergeable: true,
  mergeable_state: true,
  created_at: 'instant',
  updated_at: 'instant',
  closed_at: 'instant',
  merged_at: 'instant',
} as const;

const pullRequestsOfCheck = [{ number: 'number' }] as const;
const installation = { id: true, account: { login: true } } as const;
const repositoryNames = [{ full_name: 'full_name' }] as const;

/** Keyed by `X-GitHub-Event`: the event types the intake records facts of. */
export const INTAKE_READS = {
  pull_request: { action: true, repository, pull_request: pullRequest, label: { name: true }, sender },
  pull_request_review: {
    action: true,
    repository,
    pull_request: { number: 'number' },
    review: { id: true, user: { login: true }, state: true, submitted_at: 'instant', commit_id: true },
    sender,
  },
  check_run: {
    action: true,
    repository,
    check_run: {
      id: true,
      head_sha: true,
      name: true,
      status: true,
      conclusion: true,
      // GitHub's own `rerequested` examples carry none.
      details_url: 'optional',
      started_at: 'instant',
      completed_at: 'instant',
      app: { slug: true },
      pull_requests: pullRequestsOfCheck,
    },
  },
  check_suite: {
    action: true,
    repository,
    check_suite: {
      id: true,
      head_sha: true,
      status: true,
      conclusion: true,
      app: { slug: true },
      pull_requests: pullRequestsOfCheck,
    },
  },
  status: {
    repository,
    sha: true,
    context: true,
    state: true,
    target_url: true,
    created_at: 'instant',
    updated_at: 'instant',
  },
  push: {
    repository,
    ref: true,
    before: true,
    after: true,
    created: true,
    deleted: true,
    forced: true,
    pusher: { name: true },
    sender,
  },
  installation: { action: true, installation, repositories: repositoryNames },
  installation_repositories: {
    action: true,
    installation,
    repositories_added: repositoryNames,
    repositories_removed: repositoryNames,
  },
  issue_comment: {
    action: true,
    repository,
    issue: { number: 'number', pull_request: true },
    comment: { id: true, body: true, html_url: true, user: { login: true, id: true, type: true } },
  },
} as const satisfies Record<string, ReadTree>;

export type IntakeEventName = keyof typeof INTAKE_READS;

import type {
  ChangedFile,
  ChangedFileStatus,
  CheckOnHead,
  CheckState,
  PullRequestCommit,
  PullRequestReview,
  PullRequestSnapshot,
  RepositoryRef,
  ReviewState,
} from '@switchyard/code-host';

/**
 * The fields of GitHub's pull-request object that a snapshot reads. REST answers and webhook
 * payloads carry the same object, so one mapping serves the adapter and the webhook projection.
 */
export interface GitHubPullRequest {
  number: number;
  title: string;
  body?: string | null;
  user: { login: string; id?: number } | null;
  state: string;
  merged?: boolean | null;
  merged_by?: { login: string } | null;
  merge_commit_sha?: string | null;
  draft?: boolean;
  locked: boolean;
  base: GitHubBranch;
  head: GitHubBranch;
  milestone?: { title: string } | null;
  labels: { id?: number; name?: string; color?: string; default?: boolean }[];
  assignees?: ({ login: string } | null)[] | null;
  requested_reviewers?: ({ login?: string } | { slug?: string } | null)[] | null;
  requested_teams?: { slug?: string }[] | null;
  mergeable?: boolean | null;
  mergeable_state?: string;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  merged_at: string | null;
}

interface GitHubBranch {
  ref: string;
  sha: string;
  repo: { full_name: string; name: string; owner: { login: string }; default_branch?: string } | null;
}

export function repositoryRefOf(repo: {
  full_name: string;
  name: string;
  owner: { login: string };
  default_branch?: string;
}): RepositoryRef {
  return {
    owner: repo.owner.login,
    name: repo.name,
    fullName: repo.full_name,
    defaultBranch: repo.default_branch ?? 'main',
  };
}

/** A snapshot from the pull-request object alone: reviews, files, commits and checks start empty. */
export function snapshotFromPullRequest(
  pull: GitHubPullRequest,
  repository: RepositoryRef,
): PullRequestSnapshot {
  const owner = repository.owner;
  return {
    repository,
    number: pull.number,
    title: pull.title,
    body: pull.body ?? '',
    author: pull.user?.login ?? 'ghost',
    ...(pull.user?.id === undefined ? {} : { authorId: pull.user.id }),
    state: pull.state === 'closed' ? 'closed' : 'open',
    merged: pull.merged ?? pull.merged_at !== null,
    mergedBy: pull.merged_by?.login ?? null,
    mergeCommitSha: pull.merge_commit_sha ?? null,
    draft: pull.draft ?? false,
    locked: pull.locked,
    base: branchTip(pull.base, repository.fullName),
    head: branchTip(pull.head, repository.fullName),
    milestone: pull.milestone?.title ?? null,
    labels: pull.labels.flatMap((label) => (label.name ? [label.name] : [])),
    labelDetails: pull.labels.flatMap((label) =>
      label.name && label.id !== undefined
        ? [{ id: label.id, name: label.name, color: label.color ?? '', default: label.default ?? false }]
        : [],
    ),
    // GitHub's schema allows null entries (a deleted account) and teams without a slug: skipped.
    assignees: (pull.assignees ?? []).flatMap((user) => (user ? [user.login] : [])),
    requestedReviewers: (pull.requested_reviewers ?? []).flatMap((r) =>
      r && 'login' in r && r.login ? [r.login] : [],
    ),
    requestedTeams: (pull.requested_teams ?? []).flatMap((team) =>
      team.slug ? [`@${owner}/${team.slug}`] : [],
    ),
    reviews: [],
    files: [],
    commits: [],
    commitsBehind: null,
    mergeable: pull.mergeable ?? null,
    mergeableState: pull.mergeable_state ?? 'unknown',
    checks: [],
    createdAt: pull.created_at,
    updatedAt: pull.updated_at,
    closedAt: pull.closed_at,
    mergedAt: pull.merged_at,
  };
}

function branchTip(branch: GitHubBranch, fallbackRepository: string) {
  return {
    ref: branch.ref,
    sha: branch.sha,
    repositoryFullName: branch.repo?.full_name ?? fallbackRepository,
  };
}

const REVIEW_STATES: readonly ReviewState[] = [
  'APPROVED',
  'CHANGES_REQUESTED',
  'COMMENTED',
  'DISMISSED',
  'PENDING',
];

export interface GitHubReview {
  id: number;
  user: { login: string } | null;
  state: string;
  submitted_at?: string | null;
  commit_id: string | null;
}

export function reviewOf(review: GitHubReview): PullRequestReview {
  // Webhooks spell states in lower case (`approved`), REST in upper case.
  const state = review.state.toUpperCase() as ReviewState;
  return {
    id: review.id,
    author: review.user?.login ?? 'ghost',
    state: REVIEW_STATES.includes(state) ? state : 'COMMENTED',
    submittedAt: review.submitted_at ?? null,
    commitId: review.commit_id,
  };
}

const FILE_STATUSES: readonly ChangedFileStatus[] = [
  'added',
  'removed',
  'modified',
  'renamed',
  'copied',
  'changed',
  'unchanged',
];

export interface GitHubChangedFile {
  filename: string;
  previous_filename?: string;
  status: string;
  additions: number;
  deletions: number;
}

export function changedFileOf(file: GitHubChangedFile): ChangedFile {
  const status = file.status as ChangedFileStatus;
  return {
    filename: file.filename,
    previousFilename: file.previous_filename ?? null,
    status: FILE_STATUSES.includes(status) ? status : 'modified',
    additions: file.additions,
    deletions: file.deletions,
  };
}

interface GitHubGitIdentity {
  name?: string;
  email?: string;
  date?: string;
}

export interface GitHubCommit {
  sha: string;
  commit: {
    message: string;
    author: GitHubGitIdentity | null;
    committer: GitHubGitIdentity | null;
    verification?: { verified: boolean };
  };
  author: { login: string } | Record<string, never> | null;
  committer: { login: string } | Record<string, never> | null;
  parents: { sha: string }[];
}

export function commitOf(commit: GitHubCommit): PullRequestCommit {
  const identity = (git: GitHubGitIdentity | null, user: GitHubCommit['author']) => ({
    login: user && 'login' in user ? user.login : null,
    name: git?.name ?? '',
    email: git?.email ?? '',
    date: git?.date ?? '',
  });
  return {
    sha: commit.sha,
    message: commit.commit.message,
    author: identity(commit.commit.author, commit.author),
    committer: identity(commit.commit.committer, commit.committer),
    verified: commit.commit.verification?.verified ?? false,
    parents: commit.parents.map((parent) => parent.sha),
  };
}

export interface GitHubCheckRun {
  name: string;
  status: string;
  conclusion: string | null;
  details_url?: string | null;
  started_at?: string | null;
  completed_at?: string | null;
  app?: { slug?: string } | null;
}

const CHECK_CONCLUSIONS: readonly CheckState[] = [
  'success',
  'failure',
  'neutral',
  'skipped',
  'cancelled',
  'timed_out',
  'action_required',
  'stale',
];

export function checkRunOf(run: GitHubCheckRun): CheckOnHead {
  const conclusion = run.conclusion as CheckState | null;
  const state: CheckState =
    run.status !== 'completed' || conclusion === null
      ? 'pending'
      : CHECK_CONCLUSIONS.includes(conclusion)
        ? conclusion
        : 'failure';
  return {
    name: run.name,
    appSlug: run.app?.slug ?? null,
    source: 'check-run',
    state,
    detailsUrl: run.details_url ?? null,
    startedAt: run.started_at ?? null,
    completedAt: run.status === 'completed' ? (run.completed_at ?? null) : null,
  };
}

export interface GitHubCommitStatus {
  context: string;
  state: string;
  target_url?: string | null;
  created_at?: string;
  updated_at?: string;
}

export function commitStatusOf(status: GitHubCommitStatus): CheckOnHead {
  const state: CheckState =
    status.state === 'success' ? 'success' : status.state === 'pending' ? 'pending' : 'failure';
  return {
    name: status.context,
    appSlug: null,
    source: 'status',
    state,
    detailsUrl: status.target_url ?? null,
    startedAt: status.created_at ?? null,
    completedAt: state === 'pending' ? null : (status.updated_at ?? null),
  };
}

/**
 * A pull request as the code host last told us about it: the value that condition evaluation
 * reads, that the pull-request projection keeps, and that the engine plans with. Plain JSON, so it
 * can be stored in a read model and carried in events; instants are RFC 3339 strings in UTC.
 */
export interface PullRequestSnapshot {
  repository: RepositoryRef;
  number: number;
  title: string;
  /** The body as written, markdown and all (`body-raw`); `body` conditions strip comments. */
  body: string;
  author: string;
  /** The author's numeric account id; absent from snapshots recorded before it was kept. */
  authorId?: number;
  state: 'open' | 'closed';
  merged: boolean;
  mergedBy: string | null;
  mergeCommitSha: string | null;
  draft: boolean;
  locked: boolean;
  base: BranchTip;
  head: BranchTip;
  milestone: string | null;
  labels: string[];
  /** The labels as the code host describes them; absent from snapshots recorded before they were kept. */
  labelDetails?: PullRequestLabel[];
  assignees: string[];
  requestedReviewers: string[];
  /** Requested teams as `@org/slug`. */
  requestedTeams: string[];
  reviews: PullRequestReview[];
  files: ChangedFile[];
  commits: PullRequestCommit[];
  /** Commits on the base that the head lacks; null until compared. */
  commitsBehind: number | null;
  /** GitHub's `mergeable`: null while it is still computing. */
  mergeable: boolean | null;
  /** GitHub's `mergeable_state` (`clean`, `dirty`, `blocked`, `behind`, `unstable`, `unknown`, ...). */
  mergeableState: string;
  /** Check runs and commit statuses on the head commit, latest per name. */
  checks: CheckOnHead[];
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
}

/**
 * A pull request as one `GET /pulls/{number}` tells it: the snapshot without its reviews, files,
 * commits, checks and distance from the base, which `getPullRequest` reads with six more calls.
 * What the merge queue acts on (state, merged, heads) is all here.
 */
export type PullRequestSummary = Omit<
  PullRequestSnapshot,
  'reviews' | 'files' | 'commits' | 'checks' | 'commitsBehind'
>;

/** The summary within a snapshot. */
export function summaryOf(snapshot: PullRequestSnapshot): PullRequestSummary {
  const {
    reviews: _reviews,
    files: _files,
    commits: _commits,
    checks: _checks,
    commitsBehind: _commitsBehind,
    ...summary
  } = snapshot;
  return summary;
}

export interface PullRequestLabel {
  id: number;
  name: string;
  /** Six hex digits, without `#`. */
  color: string;
  default: boolean;
}

export interface RepositoryRef {
  owner: string;
  name: string;
  /** `owner/name` */
  fullName: string;
  defaultBranch: string;
}

export interface BranchTip {
  ref: string;
  sha: string;
  /** `owner/name` of the repository the branch lives in (differs from the base's for forks). */
  repositoryFullName: string;
}

export type ReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';

export interface PullRequestReview {
  id: number;
  author: string;
  state: ReviewState;
  submittedAt: string | null;
  /** The commit the review was left on. */
  commitId: string | null;
}

export type ChangedFileStatus =
  'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';

export interface ChangedFile {
  filename: string;
  /** The old path of a renamed file. */
  previousFilename: string | null;
  status: ChangedFileStatus;
  additions: number;
  deletions: number;
}

export interface CommitIdentity {
  login: string | null;
  name: string;
  email: string;
  date: string;
}

export interface PullRequestCommit {
  sha: string;
  message: string;
  author: CommitIdentity;
  committer: CommitIdentity;
  verified: boolean;
  parents: string[];
}

/**
 * One check's state in condition terms. GitHub's check-run conclusions and commit-status states
 * fold into these: `failure` also covers `error`; `pending` covers queued and in-progress runs;
 * `stale` is GitHub's own conclusion for runs left incomplete for 14 days.
 */
export type CheckState =
  | 'success'
  | 'failure'
  | 'neutral'
  | 'skipped'
  | 'cancelled'
  | 'timed_out'
  | 'action_required'
  | 'stale'
  | 'pending';

export interface CheckOnHead {
  name: string;
  /** The GitHub App that owns a check run (`@app-slug/name` conditions); null for statuses. */
  appSlug: string | null;
  source: 'check-run' | 'status';
  state: CheckState;
  detailsUrl: string | null;
  startedAt: string | null;
  completedAt: string | null;
}

import type { PullRequestSnapshot, PullRequestSummary, RepositoryRef } from './pull-request-snapshot';
import type { CodeHostUsage } from './code-host-usage';

/** A repository as the caller names it; the host answers with its full `RepositoryRef`. */
export interface RepositoryCoordinates {
  owner: string;
  name: string;
}

/** Configuration files in the order queue-semantics §1.1 looks them up: the first that exists wins. */
export const CONFIGURATION_FILE_PATHS = [
  '.mergify.yml',
  '.mergify/config.yml',
  '.github/mergify.yml',
] as const;

export type ConfigurationFilePath = (typeof CONFIGURATION_FILE_PATHS)[number];

export interface ConfigurationFile {
  path: ConfigurationFilePath;
  /** The file's text, decoded as UTF-8. */
  content: string;
  /** The blob sha, so a caller can tell whether the file changed. */
  sha: string;
  /** The ref it was read at; null when read at the default branch. */
  ref: string | null;
}

export interface BranchHead {
  name: string;
  sha: string;
}

/** GitHub's `compare` statuses: how `head` relates to `base`. */
export type ComparisonStatus = 'ahead' | 'behind' | 'diverged' | 'identical';

export interface Comparison {
  status: ComparisonStatus;
  /** Commits on head that base lacks. */
  aheadBy: number;
  /** Commits on base that head lacks. */
  behindBy: number;
  mergeBaseSha: string;
  /** Paths changed between the merge base and head. */
  files: string[];
}

/** A collaborator's permission on a repository, as GitHub ranks them. */
export type RepositoryPermission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export type MergeMethod = 'merge' | 'squash' | 'rebase' | 'fast-forward';

export interface MergeRequest {
  method: MergeMethod;
  /** Refuse (as `conflict`) unless the head is still this commit: no merging what was not tested. */
  expectedHeadSha?: string;
  commitTitle?: string;
  commitMessage?: string;
}

export interface MergeOutcome {
  /** The commit the base branch now points at. */
  sha: string;
}

export interface DraftPullRequestRequest {
  title: string;
  body: string;
  /** The branch holding the changes (must exist). */
  head: string;
  base: string;
}

export interface CreatedPullRequest {
  number: number;
  headSha: string;
  url: string;
}

export type CheckRunStatus = 'queued' | 'in_progress' | 'completed';

export type CheckRunConclusion =
  'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required';

export interface CheckRunOutput {
  title: string;
  summary: string;
  text?: string;
}

export interface CheckRunFields {
  status?: CheckRunStatus;
  /** Required by GitHub when status is `completed`. */
  conclusion?: CheckRunConclusion;
  detailsUrl?: string;
  externalId?: string;
  output?: CheckRunOutput;
}

export interface NewCheckRun extends CheckRunFields {
  name: string;
  headSha: string;
}

export interface CheckRunRef {
  id: number;
}

export interface CommentRef {
  id: number;
  url: string;
}

/** A comment on a pull request's conversation (GitHub's issue comments). */
export interface IssueComment extends CommentRef {
  body: string;
  /** The author's login (`<app-slug>[bot]` for a GitHub App). */
  author: string;
  /** Written by the account this code host acts as: a comment Switchyard posted itself. */
  ownComment: boolean;
}

/**
 * What Switchyard reads from and does to a code host. One adapter (Octokit) drives github.com,
 * GitHub Enterprise Server and the sandbox forge; every adapter passes the port contract suite.
 * Failures the caller is expected to handle arrive as `CodeHostError` with a kind.
 */
export interface CodeHost {
  // Reads
  getRepository(repository: RepositoryCoordinates): Promise<RepositoryRef>;
  /** The whole snapshot: the pull request, its reviews, files, commits, checks and comparison (7 calls). */
  getPullRequest(repository: RepositoryCoordinates, number: number): Promise<PullRequestSnapshot>;
  /** The pull request alone, in one call: enough to act on its state and heads. */
  getPullRequestSummary(repository: RepositoryCoordinates, number: number): Promise<PullRequestSummary>;
  /** The configuration at `ref` (the default branch when omitted), or null when no file exists. */
  getConfiguration(repository: RepositoryCoordinates, ref?: string): Promise<ConfigurationFile | null>;
  getBranchHead(repository: RepositoryCoordinates, branch: string): Promise<BranchHead>;
  compare(repository: RepositoryCoordinates, base: string, head: string): Promise<Comparison>;
  /** Logins of the members of `@org/teamSlug`. */
  listTeamMembers(org: string, teamSlug: string): Promise<string[]>;
  isTeamMember(org: string, teamSlug: string, login: string): Promise<boolean>;
  getPermission(repository: RepositoryCoordinates, login: string): Promise<RepositoryPermission>;
  /** Every comment of a pull request's conversation, oldest first (all pages). */
  listComments(repository: RepositoryCoordinates, number: number): Promise<IssueComment[]>;

  // Writes
  createBranch(repository: RepositoryCoordinates, branch: string, sha: string): Promise<BranchHead>;
  /** Moves a branch; without `force` only a fast-forward is accepted (else `conflict`). */
  updateBranch(
    repository: RepositoryCoordinates,
    branch: string,
    sha: string,
    options?: { force?: boolean },
  ): Promise<BranchHead>;
  deleteBranch(repository: RepositoryCoordinates, branch: string): Promise<void>;
  /**
   * Merges `head` (a branch or commit) into the branch `base` with a merge commit (GitHub's
   * `POST /merges`): how the queue composes a draft branch. Answers the branch's new head, the
   * same head when there was nothing to merge; a conflict is `conflict`.
   */
  mergeIntoBranch(
    repository: RepositoryCoordinates,
    base: string,
    head: string,
    message?: string,
  ): Promise<BranchHead>;
  createDraftPullRequest(
    repository: RepositoryCoordinates,
    request: DraftPullRequestRequest,
  ): Promise<CreatedPullRequest>;
  closePullRequest(repository: RepositoryCoordinates, number: number): Promise<void>;
  mergePullRequest(
    repository: RepositoryCoordinates,
    number: number,
    request: MergeRequest,
  ): Promise<MergeOutcome>;
  /** Merges the base into the pull request's head branch (GitHub's `update-branch`). */
  updatePullRequestBranch(
    repository: RepositoryCoordinates,
    number: number,
    options?: { expectedHeadSha?: string },
  ): Promise<void>;
  createCheckRun(repository: RepositoryCoordinates, checkRun: NewCheckRun): Promise<CheckRunRef>;
  updateCheckRun(
    repository: RepositoryCoordinates,
    checkRunId: number,
    fields: CheckRunFields,
  ): Promise<CheckRunRef>;
  addLabels(repository: RepositoryCoordinates, number: number, labels: string[]): Promise<string[]>;
  removeLabel(repository: RepositoryCoordinates, number: number, label: string): Promise<void>;
  /** Creates a comment: content creation, which GitHub's secondary limit counts (80/min, 500/h). */
  comment(repository: RepositoryCoordinates, number: number, body: string): Promise<CommentRef>;
  /** Replaces the body of a comment (`not-found` once deleted): an edit, not new content. */
  updateComment(repository: RepositoryCoordinates, commentId: number, body: string): Promise<CommentRef>;

  /** Every REST call and write this code host has sent since it was made, per operation. */
  usage(): CodeHostUsage;

  /**
   * Runs `work` and answers the REST calls and writes it caused, counted per operation, even
   * while other work runs concurrently (the engine's budget: ≤ 25 calls, ≤ 3 writes per merge).
   */
  metered<T>(work: () => Promise<T>): Promise<{ result: T; usage: CodeHostUsage }>;
}

export const CODE_HOST = Symbol('CODE_HOST');

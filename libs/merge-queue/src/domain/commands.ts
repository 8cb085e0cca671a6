import type { AbortCode, CheckState, CommandAuthor, QueueCheck } from './events';
import type { QueuePolicy } from './policy';

/**
 * Commands on one queue (a repository's base branch). Time arrives in every command as epoch
 * milliseconds (`at`); the decider never reads a clock. After applying what a command says, the
 * decider always runs the planner, so a command may also start batches, merge or time things out.
 */
interface At {
  /** `owner/repository`, lower-cased, and the base branch: the queue the command is for. */
  repository: string;
  baseRef: string;
  at: number;
}

/** A `@mergify <command>` comment or a dashboard checkbox that caused the command: it is logged. */
export interface CommandOrigin {
  /** The command word as typed: queue, requeue, dequeue. */
  command: string;
  author: CommandAuthor;
  commentId: number;
  commandTrigger: 'comment' | 'checkbox' | null;
  triggerCommentUrl: string | null;
}

/** A pull request enters (rule action, `@mergify queue`, queue conditions met) or is re-queued. */
export interface Enqueue extends At {
  kind: 'enqueue';
  pullRequest: number;
  queueName: string;
  /** Resolved by the application from `priority_rules` (first match wins; medium otherwise). */
  priority: number;
  priorityRuleName: string | null;
  allowCheckInterruption: boolean;
  headSha: string;
  scopes: string[];
  allScopes: boolean;
  /** Queued stack predecessors (`Depends-On: #N`, or a base that is another pull request's head). */
  dependsOn: number[];
  /** "Rule: <name>" or "Command: queue ..." */
  trigger: string;
  /** Set when a user's command queued it. */
  origin?: CommandOrigin;
}

/** Automatic or manual removal; the code says why (PR_MANUALLY_DEQUEUED, PULL_REQUEST_UPDATED...). */
export interface Dequeue extends At {
  kind: 'dequeue';
  pullRequest: number;
  code: DequeueRequestCode;
  reason: string;
  trigger: string;
  /** Set when a user's `dequeue` command removed it. */
  origin?: CommandOrigin;
}

export type DequeueRequestCode = Extract<
  AbortCode,
  | 'PR_MANUALLY_DEQUEUED'
  | 'PR_DEQUEUED'
  | 'PULL_REQUEST_UPDATED'
  | 'BASE_BRANCH_CHANGED'
  | 'BASE_BRANCH_MISSING'
  | 'UNPROCESSABLE_PULL_REQUEST'
  | 'CONFIGURATION_CHANGED'
  | 'INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS'
>;

/**
 * A user asked through the API to remove the pull request. It stays queued, marked, until the
 * `dequeue` that carries the removal out (issued by whoever runs the queue's processors).
 */
export interface RequestDequeue extends At {
  kind: 'request_dequeue';
  pullRequest: number;
  trigger: string;
}

/** A queued pull request's priority was re-evaluated (refresh). */
export interface Refresh extends At {
  kind: 'refresh';
  pullRequest: number;
  priority: number;
  priorityRuleName: string | null;
  allowCheckInterruption: boolean;
}

export interface SetScopes extends At {
  kind: 'set_scopes';
  pullRequest: number;
  scopes: string[];
  allScopes: boolean;
}

/** The code host created the draft pull request (or updated the pull request in place). */
export interface DraftCreated extends At {
  kind: 'draft_created';
  batchId: string;
  attempt: number;
  /** The draft's number, or the pull request's own number for in-place checks. */
  checkPullRequest: number;
  headSha: string;
}

/**
 * The code host could not prepare the batch. `conflict` names the pull request that did not merge
 * onto the branch and whether it conflicts with the base itself or only with pull requests merged
 * before it; `not_indexed` is GitHub's temporary "branch not indexed yet".
 */
export interface DraftFailed extends At {
  kind: 'draft_failed';
  batchId: string;
  attempt: number;
  failure:
    | { kind: 'conflict'; pullRequest: number; withBase: boolean }
    | { kind: 'not_indexed' }
    | { kind: 'error'; message: string }
    | { kind: 'branch_update_failed'; message: string };
}

/** The checks of a batch's check pull request reached a conclusion. */
export interface ChecksReported extends At {
  kind: 'checks_reported';
  batchId: string;
  attempt: number;
  conclusion: Extract<CheckState, 'success' | 'failure'>;
  unsuccessfulChecks: QueueCheck[];
}

export interface PullRequestMergedByQueue extends At {
  kind: 'merged';
  pullRequest: number;
  mergeCommitSha: string;
}

export interface MergeFailed extends At {
  kind: 'merge_failed';
  pullRequest: number;
  /** `retry`: the branch moved under us, try again; `pending`: protections still wait; `error`: give up. */
  outcome: 'retry' | 'pending' | 'error';
  message: string;
}

/** The draft pull request of a batch is closed and its branch deleted. */
export interface DraftClosed extends At {
  kind: 'draft_closed';
  checkPullRequest: number;
}

/** A branch the queue prepared for a batch that left without a draft is deleted (or was never made). */
export interface DraftBranchDeletedCommand extends At {
  kind: 'draft_branch_deleted';
  branch: string;
}

/** Someone other than the queue pushed to the draft branch, or closed the draft. */
export interface DraftTampered extends At {
  kind: 'draft_tampered';
  checkPullRequest: number;
  how: 'pushed' | 'closed';
}

/**
 * A passed batch was to be fast-forwarded onto the base, but the base holds commits its draft does
 * not (another queue's merge, a push not seen yet): moving the base to the draft would drop them.
 * `baseSha` is the base's head as the merge found it.
 */
export interface BatchBehindBase extends At {
  kind: 'batch_behind_base';
  batchId: string;
  baseSha: string;
}

/** The base branch's head moved (our own merge, or an external push). */
export interface BaseBranchMoved extends At {
  kind: 'base_moved';
  sha: string;
}

/** A queued pull request was merged by someone else. */
export interface MergedOutsideQueue extends At {
  kind: 'merged_outside_queue';
  pullRequest: number;
  sha: string;
}

export interface ApplyConfiguration extends At {
  kind: 'apply_configuration';
  policy: QueuePolicy;
}

export interface SetPause extends At {
  kind: 'set_pause';
  paused: boolean;
  reason: string | null;
}

/** The application evaluated the active freezes: these queued pull requests are held now. */
export interface SetFrozen extends At {
  kind: 'set_frozen';
  pullRequests: number[];
}

/** Timers: batch wait, checks timeout. */
export interface Tick extends At {
  kind: 'tick';
}

export type MergeQueueCommand =
  | Enqueue
  | Dequeue
  | RequestDequeue
  | Refresh
  | SetScopes
  | DraftCreated
  | DraftFailed
  | ChecksReported
  | PullRequestMergedByQueue
  | MergeFailed
  | BatchBehindBase
  | DraftClosed
  | DraftBranchDeletedCommand
  | DraftTampered
  | BaseBranchMoved
  | MergedOutsideQueue
  | ApplyConfiguration
  | SetPause
  | SetFrozen
  | Tick;

import type { DequeueReason } from '@switchyard/kernel';
import type { QueuePolicy } from './policy';

/**
 * Value types the merge-queue events carry. They mirror the spec's QueueCheck, ConditionResult and
 * SpecCheckSignal in camelCase; the activity-log mapping turns them into the spec's snake_case JSON.
 */

export type CheckState =
  | 'failure'
  | 'error'
  | 'cancelled'
  | 'action_required'
  | 'timed_out'
  | 'pending'
  | 'neutral'
  | 'skipped'
  | 'stale'
  | 'success';

export interface QueueCheck {
  name: string;
  description: string;
  url: string | null;
  detailsUrl?: string | null;
  state: CheckState;
  avatarUrl: string | null;
}

/** One node of a queue-condition evaluation report (recursive). */
export interface ConditionResult {
  match: boolean;
  label: string;
  isLabelUserInput: boolean;
  description: string | null;
  attributeName: string | null;
  operator: string | null;
  schedule: Record<string, unknown> | null;
  subconditions: ConditionResult[];
  evaluations: Array<Record<string, unknown>>;
}

/** Where and how a batch's checks run: a draft pull request, or the user's own one (in place). */
export interface SpeculativeCheck {
  /** The draft pull request number, or the user's own pull request number when inPlace. */
  number: number;
  inPlace: boolean;
  checksTimedOut: boolean;
  checksConclusion: CheckState;
  checksStartedAt: string | null;
  checksEndedAt: string | null;
  unsuccessfulChecks: QueueCheck[];
  /** Every pull request the check covers (absent from events recorded before it was kept). */
  pullRequestNumbers?: number[];
}

/**
 * The batch an event concerns, as the status API showed it: its name (`<queue> #1 #2`, which lives
 * only in the live queue state), the scopes it checks and the batches it is checked on top of.
 * Absent from events recorded before it was kept; the log shows null for each field then.
 */
export interface BatchFacts {
  batchName?: string;
  scopes?: string[];
  allScopes?: boolean;
  parentIds?: string[];
}

/** The batch a pull request was checked in before, for a check that is a restart. */
export interface PreviousBatch {
  id: string;
  name: string | null;
}

/** A queued pull request as the queue knows it when an event snapshots it. */
export interface QueuedPullRequest {
  number: number;
  queuedAt: string;
  priorityRuleName: string | null;
  /** One id per stay in the queue (enter -> leave), shared by every event of that stay. */
  sessionId: string;
}

/**
 * The reasons of Mergify's list (the kernel's DEQUEUE_REASONS) that this engine never writes when it
 * takes a pull request out: the merges, and outcomes of features it does not have.
 */
type ReasonsNeverAborting =
  | 'NONE'
  | 'PR_MERGED'
  | 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED'
  | 'DROPPED_BY_BISECTION_ELIMINATION'
  | 'SCHEDULE_BLOCKED_AHEAD_YIELDED'
  | 'BASE_REF_ALIGNMENT_TIMEOUT'
  | 'GITHUB_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED'
  | 'BATCH_SCOPES_CHANGED'
  | 'BATCH_AHEAD_BRANCH_EDITED'
  | 'CHECKS_INTERRUPTED';

/** The dequeue reasons this engine writes: the kernel's one list, less those it never writes. */
export type AbortCode = Exclude<DequeueReason, ReasonsNeverAborting>;

/** REEMBARKED: the pull request stays queued and is checked again; DEFINITIVE: its checks ended for good. */
export type AbortStatus = 'DEFINITIVE' | 'REEMBARKED';

/** Why a pull request left the queue: merged, or one of the abort codes. */
export type DequeueCode = 'PR_MERGED' | 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED' | AbortCode;

/** Who ran a command, as the code host reports it. */
export interface CommandAuthor {
  login: string;
  id: number;
  type: 'User' | 'Organization' | 'Bot' | 'Mannequin' | 'Enterprise' | null;
  avatarUrl?: string | null;
}

/**
 * The merge-queue domain events. Type names are stable storage keys, never class names; data is
 * plain JSON (times are RFC 3339 strings). Every event says where it happened (repository, base
 * ref), what caused it (trigger: "merge queue internal", "Rule: <name>", "Command: <command>") and
 * when (occurredAt, the engine's clock when it decided, which becomes the log's received_at).
 *
 * Batch-level facts (checks started or ended, a bisection, a composition) are one event per batch
 * carrying the pull requests it concerns; the activity log fans them out to one record per pull
 * request, so a pull request's history shows every batch it rode in.
 */
interface Where {
  /** `owner/repository`, lower-cased. */
  repository: string;
  baseRef: string;
  trigger: string;
  occurredAt: string;
}

interface InQueue {
  queueName: string;
  /** `__default__` when the repository has no partitions. */
  partitionName: string;
}

export interface PullRequestEntered {
  type: 'merge_queue.pull_request_entered';
  data: Where &
    InQueue & {
      pullRequest: number;
      queuedAt: string;
      priorityRuleName: string | null;
      sessionId: string;
      /** What the queue plans with (not logged): effective priority, scopes, stack, head. */
      priority: number;
      allowCheckInterruption: boolean;
      scopes: string[];
      allScopes: boolean;
      dependsOn: number[];
      headSha: string;
    };
}

export interface ChecksStarted {
  type: 'merge_queue.checks_started';
  data: Where &
    InQueue &
    BatchFacts & {
      /** The batch (train car); null for a pull request checked alone in place. */
      trainCarId: string | null;
      /** 0 for the first run, n for the n-th retry (a fresh draft each time). */
      attempt: number;
      startReason: string;
      speculativeCheck: SpeculativeCheck;
      pullRequests: QueuedPullRequest[];
      /** The commit whose checks decide (absent from events recorded before it was kept). */
      checkHeadSha?: string;
      /**
       * By pull request number: the batch it was last checked in during this stay, null on its first
       * check (absent from events recorded before it was kept).
       */
      previousBatches?: Record<number, PreviousBatch | null>;
    };
}

export interface ChecksEnded {
  type: 'merge_queue.checks_ended';
  data: Where &
    InQueue &
    BatchFacts & {
      trainCarId: string | null;
      aborted: boolean;
      abortCode: AbortCode | null;
      abortReason: string | null;
      abortStatus: AbortStatus;
      retryAttempt: number | null;
      maxRetries: number | null;
      speculativeCheck: SpeculativeCheck;
      pullRequests: QueuedPullRequest[];
    };
}

interface BisectionOf {
  trainCarId: string | null;
  /** The pull requests of the batch being split, in queue order. */
  originalBatch: QueuedPullRequest[];
  /** Every check pull request number the split batch used (it rotates on retries). */
  batchPullRequestNumbers: number[];
  /** The split batch's name as the status API showed it (absent from events recorded before it was kept). */
  batchName?: string;
}

export interface BatchBisectionStarted {
  type: 'merge_queue.batch_bisection_started';
  data: Where &
    InQueue &
    BisectionOf & {
      batchSizeBeforeSplit: number;
      numberOfSubBatches: number;
      bisectionDepth: number;
      isTopLevel: boolean;
    };
}

export interface BatchBisectionEnded {
  type: 'merge_queue.batch_bisection_ended';
  data: Where &
    InQueue &
    BisectionOf & {
      culpritFound: boolean;
      culpritPullRequests: number[];
      remainingPullRequests: number[];
      maxFailureResolutionReached: boolean;
      /**
       * Dropped when batch_max_failure_resolution_attempts was reached, their own failure never
       * shown (absent from events recorded before it was kept).
       */
      droppedUnverifiedPullRequests?: number[];
    };
}

export interface PullRequestMerged {
  type: 'merge_queue.pull_request_merged';
  data: Where & {
    pullRequest: number;
    queueName: string;
    partitionNames: string[];
    queuedAt: string;
    priorityRuleName: string | null;
    sessionId: string;
    /** The base branch's new tip (absent from events recorded before it was kept). */
    mergeCommitSha?: string;
  };
}

export interface PullRequestLeft {
  type: 'merge_queue.pull_request_left';
  data: Where &
    InQueue & {
      pullRequest: number;
      reason: string;
      merged: boolean;
      dequeueCode: DequeueCode | null;
      queuedAt: string;
      secondsWaitingForSchedule: number;
      secondsWaitingForFreeze: number;
      priorityRuleName: string | null;
      conditionsEvaluation: ConditionResult | null;
      checks: QueueCheck[];
      unsuccessfulChecks: QueueCheck[];
      pullRequestHeadSha: string;
      sessionId: string | null;
      /**
       * The batch it rode in when it left: null when it left waiting (absent from events recorded
       * before it was kept).
       */
      batch?: { id: string; scopes: string[]; allScopes: boolean } | null;
    };
}

export interface QueueSizeChanged {
  type: 'merge_queue.queue_size_changed';
  data: Where & InQueue & { priorityRuleName: string | null; size: number };
}

export interface RunningChecksChanged {
  type: 'merge_queue.running_checks_changed';
  data: Where & InQueue & { runningChecks: number };
}

export interface ChecksPostponed {
  type: 'merge_queue.checks_postponed';
  data: Where &
    InQueue & {
      pullRequest: number;
      queuedAt: string;
      priorityRuleName: string | null;
      reason: string;
      sessionId: string;
    };
}

export interface ConflictDeferred {
  type: 'merge_queue.conflict_deferred';
  data: Where &
    InQueue & {
      pullRequest: number;
      queuedAt: string;
      priorityRuleName: string | null;
      reason: string;
      /** The pull requests ahead that were in flight; the conflict is with at least one of them. */
      blockingPullRequests: number[];
      sessionId: string;
    };
}

export interface BatchComposed {
  type: 'merge_queue.batch_composed';
  data: Where &
    InQueue & {
      trainCarId: string;
      pullRequests: QueuedPullRequest[];
      /** Why these pull requests ride together: shared scopes, shared directories, or queue order. */
      batchReason: 'scope' | 'directory' | 'queue_order';
      /** The batches this one is checked on top of (and merges after). */
      parentIds: string[];
      scopes: string[];
      allScopes: boolean;
      /** Set on the sub-batches of a split: which bisection, how deep. */
      bisection: { bisectionId: string; depth: number } | null;
      /** The failed batch's last pull request re-appended on top of the splits: its result is known. */
      knownFailure: boolean;
    };
}

/**
 * The queue's own bookkeeping: facts it needs to rebuild its state that the activity log has no
 * record type for (the log mapping gives them zero records).
 */
export interface ConfigurationApplied {
  type: 'merge_queue.configuration_applied';
  data: Where & { policy: QueuePolicy };
}

/** A batch takes a checks slot: the code host is asked for a draft (or an in-place update). */
export interface BatchPreparing {
  type: 'merge_queue.batch_preparing';
  data: Where & {
    trainCarId: string;
    attempt: number;
    checkMethod: 'draft_pr' | 'in_place';
    /** `queue_branch_prefix` + 10 hex characters, derived from the batch id and attempt. */
    branch: string;
    baseSha: string | null;
  };
}

/** The batch's checks passed (or a later passing batch covered it under skip_intermediate_results). */
export interface BatchPassed {
  type: 'merge_queue.batch_passed';
  data: Where & { trainCarId: string; covered: boolean; checksSeconds: number | null };
}

/** The batch's checks failed for good (retries spent); what happens next depends on the batches ahead. */
export interface BatchFailed {
  type: 'merge_queue.batch_failed';
  data: Where & { trainCarId: string; timedOut: boolean; unsuccessfulChecks: QueueCheck[] };
}

/** The batch is gone without merging; these pull requests go back to waiting. */
export interface BatchDissolved {
  type: 'merge_queue.batch_dissolved';
  data: Where & {
    trainCarId: string;
    returnedPullRequests: number[];
    /**
     * Why it was torn down (BATCH_AHEAD_FAILED: a batch it was checked on top of failed). Also set
     * when no checks were open, so no checks_ended says it. Absent from events recorded before it was kept.
     */
    abortCode?: AbortCode;
  };
}

export interface PauseObserved {
  type: 'merge_queue.pause_observed';
  data: Where & { paused: boolean; reason: string | null };
}

export interface FreezeObserved {
  type: 'merge_queue.freeze_observed';
  data: Where & { frozenPullRequests: number[] };
}

export interface ScopesSet {
  type: 'merge_queue.scopes_set';
  data: Where & { pullRequest: number; scopes: string[]; allScopes: boolean };
}

export interface BaseMoved {
  type: 'merge_queue.base_moved';
  /** byQueue: the queue's own merge, so a late push notification for it is no external move. */
  data: Where & { sha: string; byQueue: boolean };
}

/** A draft arrived for a batch that no longer exists: it is closed like any other. */
export interface DraftOrphaned {
  type: 'merge_queue.draft_orphaned';
  data: Where & { checkPullRequest: number };
}

export interface PriorityChanged {
  type: 'merge_queue.priority_changed';
  data: Where & {
    pullRequest: number;
    priority: number;
    priorityRuleName: string | null;
    allowCheckInterruption: boolean;
  };
}

export interface DraftClosedEvent {
  type: 'merge_queue.draft_closed';
  data: Where & { checkPullRequest: number };
}

/** The branch of a batch that left the train before its draft was recorded is gone. */
export interface DraftBranchDeleted {
  type: 'merge_queue.draft_branch_deleted';
  data: Where & { branch: string };
}

/** Branch protection still waits: the merge is tried again at `retryAt`. */
export interface MergePostponed {
  type: 'merge_queue.merge_postponed';
  data: Where & { pullRequest: number; retryAt: string; message: string };
}

/** A manual removal was asked for: the pull request stays listed until the dequeue that follows. */
export interface DequeueRequested {
  type: 'merge_queue.dequeue_requested';
  data: Where & { pullRequest: number };
}

/** A `@mergifyio <command>` comment or a dashboard checkbox on a pull request. */
export interface CommandReceived {
  type: 'pull_request.command_received';
  data: Where & {
    pullRequest: number;
    /** The command word as typed: queue, requeue, dequeue, refresh, rebase... */
    command: string;
    author: CommandAuthor;
    commentId: number;
    sessionId: string | null;
    commandTrigger: 'comment' | 'checkbox' | null;
    triggerCommentUrl: string | null;
  };
}

export type MergeQueueEvent =
  | PullRequestEntered
  | ChecksStarted
  | ChecksEnded
  | BatchBisectionStarted
  | BatchBisectionEnded
  | PullRequestMerged
  | PullRequestLeft
  | QueueSizeChanged
  | RunningChecksChanged
  | ChecksPostponed
  | ConflictDeferred
  | BatchComposed
  | CommandReceived
  | ConfigurationApplied
  | BatchPreparing
  | BatchPassed
  | BatchFailed
  | BatchDissolved
  | PauseObserved
  | FreezeObserved
  | ScopesSet
  | BaseMoved
  | PriorityChanged
  | DraftClosedEvent
  | MergePostponed
  | DraftOrphaned
  | DraftBranchDeleted
  | DequeueRequested;

export type MergeQueueEventType = MergeQueueEvent['type'];

export const mergeQueueEventTypes: readonly MergeQueueEventType[] = [
  'merge_queue.pull_request_entered',
  'merge_queue.checks_started',
  'merge_queue.checks_ended',
  'merge_queue.batch_bisection_started',
  'merge_queue.batch_bisection_ended',
  'merge_queue.pull_request_merged',
  'merge_queue.pull_request_left',
  'merge_queue.queue_size_changed',
  'merge_queue.running_checks_changed',
  'merge_queue.checks_postponed',
  'merge_queue.conflict_deferred',
  'merge_queue.batch_composed',
  'pull_request.command_received',
  'merge_queue.configuration_applied',
  'merge_queue.batch_preparing',
  'merge_queue.batch_passed',
  'merge_queue.batch_failed',
  'merge_queue.batch_dissolved',
  'merge_queue.pause_observed',
  'merge_queue.freeze_observed',
  'merge_queue.scopes_set',
  'merge_queue.base_moved',
  'merge_queue.priority_changed',
  'merge_queue.draft_closed',
  'merge_queue.merge_postponed',
  'merge_queue.draft_orphaned',
  'merge_queue.draft_branch_deleted',
  'merge_queue.dequeue_requested',
];

/** Abort codes after which the pull request stays queued and is checked again (§2.13). */
export const REEMBARKED_CODES: ReadonlySet<AbortCode> = new Set<AbortCode>([
  'PR_AHEAD_DEQUEUED',
  'BATCH_AHEAD_FAILED',
  'PR_WITH_HIGHER_PRIORITY_QUEUED',
  'SCHEDULED_FREEZE_STATUS_CHANGED',
  'SPECULATIVE_CHECK_NUMBER_REDUCED',
  'PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE',
  'MERGE_QUEUE_RESET',
  'INTERMEDIATE_RESULTS_SKIPPED',
  'CHECKS_RETRIED',
  // Unknown upstream; our choice (docs/queue-behaviour.md): a closed batch draft re-embarks its pull requests.
  'BATCH_PULL_REQUEST_CLOSED',
]);

export const abortStatusOf = (code: AbortCode): AbortStatus =>
  REEMBARKED_CODES.has(code) ? 'REEMBARKED' : 'DEFINITIVE';

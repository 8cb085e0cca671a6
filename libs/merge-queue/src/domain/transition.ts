import {
  abortStatusOf,
  type AbortCode,
  type BatchFacts,
  type CheckState,
  type DequeueCode,
  type MergeQueueEvent,
  type QueuedPullRequest,
  type SpeculativeCheck,
} from './events';
import { evolveQueue, type Batch, type QueueEntry, type QueueState } from './state';
import { batchById, batchNameOf, descendantsOf, ruleOf } from './train';

export const INTERNAL_TRIGGER = 'merge queue internal';
export const DEFAULT_PARTITION = '__default__';

type Data<T extends MergeQueueEvent['type']> = Extract<MergeQueueEvent, { type: T }>['data'];
type Own<T extends MergeQueueEvent['type']> = Omit<
  Data<T>,
  'repository' | 'baseRef' | 'trigger' | 'occurredAt'
>;

/**
 * One decision in progress: every event is folded as soon as it is emitted, so each later step of
 * the same decision sees what the earlier ones did.
 */
export class Transition {
  readonly events: MergeQueueEvent[] = [];

  constructor(
    public state: QueueState,
    readonly repository: string,
    readonly baseRef: string,
    readonly at: number,
  ) {}

  get occurredAt(): string {
    return new Date(Math.max(this.at, this.state.lastAt)).toISOString();
  }

  emit<T extends MergeQueueEvent['type']>(type: T, data: Own<T>, trigger = INTERNAL_TRIGGER): void {
    const event = {
      type,
      data: {
        repository: this.repository,
        baseRef: this.baseRef,
        trigger,
        occurredAt: this.occurredAt,
        ...data,
      },
    } as unknown as MergeQueueEvent;
    this.events.push(event);
    this.state = evolveQueue(this.state, event);
  }
}

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export const reference = (pr: QueueEntry): QueuedPullRequest => ({
  number: pr.number,
  queuedAt: new Date(pr.queuedAt).toISOString(),
  priorityRuleName: pr.priorityRuleName,
  sessionId: pr.sessionId,
});

export const referencesOf = (state: QueueState, numbers: readonly number[]): QueuedPullRequest[] =>
  numbers.flatMap((n) => {
    const pr = state.pullRequests[n];
    return pr ? [reference(pr)] : [];
  });

/** What the log records of the batch an event concerns (Mergify's batch_name, scopes, parent_batch_ids). */
export const batchFactsOf = (batch: Batch): Required<BatchFacts> => ({
  batchName: batchNameOf(batch.queueName, batch.pullRequests),
  scopes: batch.scopes,
  allScopes: batch.allScopes,
  parentIds: batch.parentIds,
});

export const speculativeCheckOf = (
  batch: Batch,
  conclusion: CheckState,
  endedAt: number | null,
): SpeculativeCheck => ({
  number: batch.checkPullRequest ?? 0,
  inPlace: batch.checkMethod === 'in_place',
  checksTimedOut: batch.timedOut,
  checksConclusion: conclusion,
  checksStartedAt: iso(batch.checksStartedAt),
  checksEndedAt: iso(endedAt),
  unsuccessfulChecks: conclusion === 'failure' ? batch.unsuccessfulChecks : [],
  pullRequestNumbers: batch.pullRequests,
});

const ABORT_REASONS: Partial<Record<AbortCode, string>> = {
  PR_AHEAD_DEQUEUED: 'A pull request ahead in the queue has been dequeued',
  BATCH_AHEAD_FAILED: 'A batch ahead in the queue failed',
  PR_WITH_HIGHER_PRIORITY_QUEUED: 'A pull request with a higher priority has been queued',
  SCHEDULED_FREEZE_STATUS_CHANGED: 'A scheduled freeze changed which pull requests of the batch are frozen',
  SPECULATIVE_CHECK_NUMBER_REDUCED: 'The number of parallel checks has been reduced',
  PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE: 'The merge queue has been paused',
  MERGE_QUEUE_RESET: 'The merge queue has been reset',
  INTERMEDIATE_RESULTS_SKIPPED: 'A later batch containing these changes passed its checks',
  CHECKS_RETRIED: 'Checks failed and are being retried',
  CHECKS_FAILED: 'Checks did not succeed',
  CHECKS_TIMEOUT: 'Checks have timed out',
  BATCH_PULL_REQUEST_CLOSED: 'The batch pull request has been closed',
};

export const abortReasonOf = (code: AbortCode): string =>
  ABORT_REASONS[code] ?? `Checks ended: ${code.toLowerCase().replaceAll('_', ' ')}`;

interface ChecksEnd {
  aborted: boolean;
  code: AbortCode | null;
  conclusion: CheckState;
  pullRequests?: readonly number[];
  status?: 'DEFINITIVE' | 'REEMBARKED';
}

/** Logs the end of a batch's current checks, once. */
export function endChecks(t: Transition, batch: Batch, options: ChecksEnd): void {
  const current = batchById(t.state, batch.id);
  if (current?.checksOpen) emitChecksEnded(t, current, options);
}

function emitChecksEnded(t: Transition, current: Batch, options: ChecksEnd): void {
  const rule = ruleOf(t.state, current.queueName);
  const maxRetries = rule && rule.maxChecksRetries > 0 ? rule.maxChecksRetries : null;
  t.emit('merge_queue.checks_ended', {
    queueName: current.queueName,
    partitionName: DEFAULT_PARTITION,
    trainCarId: current.id,
    ...batchFactsOf(current),
    aborted: options.aborted,
    abortCode: options.code,
    abortReason: options.code === null ? null : abortReasonOf(options.code),
    abortStatus: options.status ?? (options.code === null ? 'DEFINITIVE' : abortStatusOf(options.code)),
    retryAttempt: maxRetries === null ? null : current.attempt + (options.code === 'CHECKS_RETRIED' ? 1 : 0),
    maxRetries,
    speculativeCheck: speculativeCheckOf(current, options.conclusion, t.at),
    pullRequests: referencesOf(t.state, options.pullRequests ?? current.pullRequests),
  });
}

/** A batch leaves the train without merging; its pull requests (but `except`) go back to waiting. */
export function dissolve(t: Transition, batch: Batch, code: AbortCode, except: readonly number[] = []): void {
  const current = batchById(t.state, batch.id);
  if (!current) return;
  const returned = current.pullRequests.filter((n) => !except.includes(n));
  const conclusion = current.phase === 'failed' ? 'failure' : 'cancelled';
  endChecks(t, current, { aborted: true, code, conclusion, pullRequests: returned });
  t.emit('merge_queue.batch_dissolved', {
    trainCarId: current.id,
    returnedPullRequests: returned,
    abortCode: code,
  });
}

/** Dissolves a batch and every batch checked on top of it, last first. */
export function dissolveWithDescendants(t: Transition, batch: Batch, code: AbortCode): void {
  const doomed = [batch, ...descendantsOf(t.state, batch)].reverse();
  for (const b of doomed) dissolve(t, b, code);
}

export function dissolveDescendants(t: Transition, batch: Batch, code: AbortCode): void {
  for (const b of descendantsOf(t.state, batch).reverse()) dissolve(t, b, code);
}

const LEAVE_REASONS: Partial<Record<DequeueCode, string>> = {
  PR_MERGED: 'Pull request has been merged by the merge queue',
  PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED:
    'Pull request has been merged by the merge queue: a later batch containing it passed its checks',
  CHECKS_FAILED: 'The merge conditions cannot be satisfied due to failing checks',
  CHECKS_TIMEOUT: 'Checks did not complete within the checks timeout',
  PR_MANUALLY_DEQUEUED: 'The pull request has been manually removed from the queue',
  STACK_PREDECESSOR_DEQUEUED: 'A pull request this one depends on has left the queue',
  CONFLICT_WITH_BASE_BRANCH: 'The pull request conflicts with the base branch',
  CONFLICT_WITH_PULL_AHEAD: 'The pull request conflicts with a pull request merged ahead of it',
  BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS:
    'The batch failed and the maximum number of failure resolution attempts was reached',
  PR_UNEXPECTEDLY_FAILED_TO_MERGE: 'The pull request could not be merged',
  DRAFT_PULL_REQUEST_CHANGED: 'The draft pull request of its batch was changed by someone else',
  DRAFT_PULL_REQUEST_CREATION_FAILED: 'The draft pull request of its batch could not be created',
  BRANCH_UPDATE_FAILED: 'The pull request branch could not be updated',
  QUEUE_RULE_MISSING: 'Its queue rule no longer exists in the configuration',
  PR_MANUALLY_MERGED: 'The pull request was merged outside the merge queue',
};

/** Records a pull request leaving the queue (merged or not), its freeze time included. */
export function recordLeave(
  t: Transition,
  pr: QueueEntry,
  code: DequeueCode,
  options: {
    merged: boolean;
    reason?: string;
    trigger?: string;
    unsuccessfulChecks?: Batch['unsuccessfulChecks'];
    /** The head it leaves with, when the queue moved it (checked in place); its queued head otherwise. */
    headSha?: string;
    /** The batch it rode in, when the state no longer holds it (merged, or the others re-embarked). */
    batch?: Batch;
  },
): void {
  const frozenNow = pr.frozenSince === null ? 0 : Math.max(0, Math.round((t.at - pr.frozenSince) / 1000));
  const batch = options.batch ?? batchById(t.state, pr.batchId);
  t.emit(
    'merge_queue.pull_request_left',
    {
      queueName: pr.queueName,
      partitionName: DEFAULT_PARTITION,
      pullRequest: pr.number,
      reason: options.reason ?? LEAVE_REASONS[code] ?? `Dequeued: ${code}`,
      merged: options.merged,
      dequeueCode: code,
      queuedAt: new Date(pr.queuedAt).toISOString(),
      secondsWaitingForSchedule: 0,
      secondsWaitingForFreeze: pr.secondsFrozen + frozenNow,
      priorityRuleName: pr.priorityRuleName,
      conditionsEvaluation: null,
      checks: [],
      unsuccessfulChecks: options.unsuccessfulChecks ?? [],
      pullRequestHeadSha: options.headSha ?? pr.headSha,
      sessionId: pr.sessionId,
      batch: batch ? { id: batch.id, scopes: batch.scopes, allScopes: batch.allScopes } : null,
    },
    options.trigger ?? (options.merged ? pr.trigger : INTERNAL_TRIGGER),
  );
  emitQueueSize(t, pr);
}

export function emitQueueSize(t: Transition, pr: QueueEntry): void {
  t.emit('merge_queue.queue_size_changed', {
    queueName: pr.queueName,
    partitionName: DEFAULT_PARTITION,
    priorityRuleName: pr.priorityRuleName,
    size: Object.values(t.state.pullRequests).filter((p) => p.queueName === pr.queueName).length,
  });
}

/**
 * A pull request leaves without merging: its batch and everything checked on top of it are torn
 * down (the others re-embark, PR_AHEAD_DEQUEUED), then its queued stack successors follow it out.
 */
export function removePullRequest(
  t: Transition,
  number: number,
  code: AbortCode,
  options: {
    reason?: string;
    trigger?: string;
    unsuccessfulChecks?: Batch['unsuccessfulChecks'];
    /** Stack successors follow a predecessor out, unless it merged (outside the queue). */
    cascade?: boolean;
  } = {},
): void {
  const pr = t.state.pullRequests[number];
  if (!pr) return;
  const batch = batchById(t.state, pr.batchId);
  // Checked in place, the queue updated its branch: the head it leaves with is the one checked.
  const headSha = batch?.checkMethod === 'in_place' ? (batch.checkHeadSha ?? undefined) : undefined;
  if (batch) {
    dissolveDescendants(t, batch, 'PR_AHEAD_DEQUEUED');
    const current = batchById(t.state, batch.id)!;
    const others = current.pullRequests.filter((n) => n !== number);
    if (current.checksOpen) {
      // One end for the leaving pull request (for good), one for the others (they re-embark).
      const end = { aborted: true, conclusion: 'cancelled' } as const;
      emitChecksEnded(t, current, { ...end, code, pullRequests: [number], status: 'DEFINITIVE' });
      if (others.length > 0)
        emitChecksEnded(t, current, { ...end, code: 'PR_AHEAD_DEQUEUED', pullRequests: others });
    }
    if (others.length > 0) {
      t.emit('merge_queue.batch_dissolved', {
        trainCarId: current.id,
        returnedPullRequests: others,
        abortCode: 'PR_AHEAD_DEQUEUED',
      });
    }
  }
  const leaving = t.state.pullRequests[number];
  if (!leaving) return;
  recordLeave(t, leaving, code, {
    merged: false,
    reason: options.reason,
    trigger: options.trigger,
    unsuccessfulChecks: options.unsuccessfulChecks,
    headSha,
    // Its batch is gone from the state once the others went back to waiting.
    batch,
  });
  if (options.cascade === false) return;
  for (const successor of Object.values(t.state.pullRequests)) {
    if (successor.dependsOn.includes(number))
      removePullRequest(t, successor.number, 'STACK_PREDECESSOR_DEQUEUED', { trigger: INTERNAL_TRIGGER });
  }
}

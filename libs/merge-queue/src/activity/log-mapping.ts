import { logMappingOfData, type LogMapping, type LogRecordDraft } from '@switchyard/activity-log-contract';
import type {
  BatchFacts,
  ConditionResult,
  MergeQueueEvent,
  MergeQueueEventType,
  PreviousBatch,
  QueueCheck,
  QueuedPullRequest,
  SpeculativeCheck,
} from '../domain/events';

/**
 * Merge-queue domain events -> activity-log records (spec "Events", metadata table). One row per
 * domain event type; batch-level events fan out to one record per pull request of the batch.
 * Checks start/end and bisection records snapshot the batch's check pull request number(s) into
 * batchPullRequests, which the batch_pull filter and the by_batch_pull_request facet read.
 */
type DataOf<T extends MergeQueueEventType> = Extract<MergeQueueEvent, { type: T }>['data'];
type Mapper<T extends MergeQueueEventType> = (data: DataOf<T>) => LogRecordDraft[];

const numbers = (pullRequests: readonly QueuedPullRequest[]): number[] => pullRequests.map((pr) => pr.number);

/** The spec's snake_case JSON for the value types the merge-queue events carry. */
const queueCheckJson = (check: QueueCheck): Record<string, unknown> => ({
  name: check.name,
  description: check.description,
  url: check.url,
  ...(check.detailsUrl !== undefined ? { details_url: check.detailsUrl } : {}),
  state: check.state,
  avatar_url: check.avatarUrl,
});

const conditionResultJson = (condition: ConditionResult): Record<string, unknown> => ({
  match: condition.match,
  label: condition.label,
  is_label_user_input: condition.isLabelUserInput,
  description: condition.description,
  attribute_name: condition.attributeName,
  operator: condition.operator,
  schedule: condition.schedule,
  subconditions: condition.subconditions.map(conditionResultJson),
  evaluations: condition.evaluations,
});

/**
 * SpecCheckSignal, with Mergify's pull_request_numbers: the pull requests the check covers (read from
 * the records' pull requests on events recorded before the check kept them).
 */
const speculativeCheckJson = (
  check: SpeculativeCheck,
  pullRequests: readonly QueuedPullRequest[],
): Record<string, unknown> => ({
  number: check.number,
  in_place: check.inPlace,
  checks_timed_out: check.checksTimedOut,
  checks_conclusion: check.checksConclusion,
  checks_started_at: check.checksStartedAt,
  checks_ended_at: check.checksEndedAt,
  unsuccessful_checks: check.unsuccessfulChecks.map(queueCheckJson),
  pull_request_numbers: check.pullRequestNumbers ?? numbers(pullRequests),
});

/**
 * Mergify's batch fields: batch_id is the train car id (train_car_id is its deprecated alias); each
 * is null on events recorded before the queue kept it, as Mergify's own schema says of its events.
 */
const batchJson = (trainCarId: string | null, facts: BatchFacts): Record<string, unknown> => ({
  batch_id: trainCarId,
  batch_name: facts.batchName ?? null,
  scopes: facts.scopes ?? null,
  all_scopes: facts.allScopes ?? null,
  parent_batch_ids: facts.parentIds ?? null,
});

/** The batch this pull request was checked in before this check: null on its first check, and on old events. */
const previousBatchJson = (
  previous: Record<number, PreviousBatch | null> | undefined,
  pullRequest: number,
): Record<string, unknown> => ({
  previous_batch_id: previous?.[pullRequest]?.id ?? null,
  previous_batch_name: previous?.[pullRequest]?.name ?? null,
});

interface Common {
  repository: string;
  baseRef: string;
  trigger: string;
  occurredAt: string;
}

const draft = (
  data: Common,
  type: string,
  pullRequest: number | null,
  metadata: Record<string, unknown>,
  batchPullRequests?: number[],
): LogRecordDraft => ({
  type,
  repository: data.repository,
  pullRequest,
  baseRef: data.baseRef,
  trigger: data.trigger,
  receivedAt: new Date(data.occurredAt),
  metadata,
  ...(batchPullRequests ? { batchPullRequests } : {}),
});

/** Commands the log has a type for; `requeue` is logged as a queue command, `unqueue` is the old dequeue. */
const COMMAND_LOG_TYPES: Readonly<Record<string, string>> = {
  queue: 'command.queue',
  requeue: 'command.queue',
  dequeue: 'command.dequeue',
  unqueue: 'command.dequeue',
};

type BookkeepingType =
  | 'merge_queue.configuration_applied'
  | 'merge_queue.batch_preparing'
  | 'merge_queue.batch_passed'
  | 'merge_queue.batch_failed'
  | 'merge_queue.batch_dissolved'
  | 'merge_queue.pause_observed'
  | 'merge_queue.freeze_observed'
  | 'merge_queue.scopes_set'
  | 'merge_queue.base_moved'
  | 'merge_queue.priority_changed'
  | 'merge_queue.draft_closed'
  | 'merge_queue.merge_postponed'
  | 'merge_queue.draft_orphaned'
  | 'merge_queue.draft_branch_deleted'
  | 'merge_queue.dequeue_requested';

const mappers: { [T in Exclude<MergeQueueEventType, BookkeepingType>]: Mapper<T> } = {
  'merge_queue.pull_request_entered': (d) => [
    draft(d, 'action.queue.enter', d.pullRequest, {
      queue_name: d.queueName,
      branch: d.baseRef,
      queued_at: d.queuedAt,
      partition_name: d.partitionName,
      priority_rule_name: d.priorityRuleName,
      session_id: d.sessionId,
    }),
  ],

  'merge_queue.checks_started': (d) =>
    d.pullRequests.map((pr) =>
      draft(
        d,
        'action.queue.checks_start',
        pr.number,
        {
          branch: d.baseRef,
          partition_name: d.partitionName,
          priority_rule_name: pr.priorityRuleName,
          queue_name: d.queueName,
          queued_at: pr.queuedAt,
          start_reason: d.startReason,
          speculative_check_pull_request: speculativeCheckJson(d.speculativeCheck, d.pullRequests),
          pull_request_numbers: numbers(d.pullRequests),
          train_car_id: d.trainCarId,
          ...batchJson(d.trainCarId, d),
          ...previousBatchJson(d.previousBatches, pr.number),
          session_id: pr.sessionId,
        },
        [d.speculativeCheck.number],
      ),
    ),

  'merge_queue.checks_ended': (d) =>
    d.pullRequests.map((pr) =>
      draft(
        d,
        'action.queue.checks_end',
        pr.number,
        {
          aborted: d.aborted,
          abort_code: d.abortCode,
          abort_reason: d.abortReason,
          abort_status: d.abortStatus,
          branch: d.baseRef,
          partition_name: d.partitionName,
          queue_name: d.queueName,
          priority_rule_name: pr.priorityRuleName,
          queued_at: pr.queuedAt,
          retry_attempt: d.retryAttempt,
          max_retries: d.maxRetries,
          speculative_check_pull_request: speculativeCheckJson(d.speculativeCheck, d.pullRequests),
          pull_request_numbers: numbers(d.pullRequests),
          train_car_id: d.trainCarId,
          ...batchJson(d.trainCarId, d),
          session_id: pr.sessionId,
        },
        [d.speculativeCheck.number],
      ),
    ),

  'merge_queue.batch_bisection_started': (d) =>
    d.originalBatch.map((pr) =>
      draft(
        d,
        'action.queue.batch_bisection_start',
        pr.number,
        {
          queue_name: d.queueName,
          partition_name: d.partitionName,
          priority_rule_name: pr.priorityRuleName,
          original_batch_pr_numbers: numbers(d.originalBatch),
          batch_size_before_split: d.batchSizeBeforeSplit,
          number_of_sub_batches: d.numberOfSubBatches,
          bisection_depth: d.bisectionDepth,
          is_top_level: d.isTopLevel,
          session_id: pr.sessionId,
          train_car_id: d.trainCarId,
          batch_id: d.trainCarId,
          batch_name: d.batchName ?? null,
        },
        d.batchPullRequestNumbers,
      ),
    ),

  'merge_queue.batch_bisection_ended': (d) =>
    d.originalBatch.map((pr) =>
      draft(
        d,
        'action.queue.batch_bisection_end',
        pr.number,
        {
          queue_name: d.queueName,
          partition_name: d.partitionName,
          priority_rule_name: pr.priorityRuleName,
          original_batch_pr_numbers: numbers(d.originalBatch),
          culprit_found: d.culpritFound,
          culprit_pr_numbers: d.culpritPullRequests,
          // The queue names a culprit only once it failed checked alone: every culprit is confirmed.
          confirmed_culprit_pr_numbers: d.culpritPullRequests,
          // Without the cap reached nothing was dropped; with it, events recorded before the
          // queue kept the list cannot say which were.
          dropped_unverified_pr_numbers:
            d.droppedUnverifiedPullRequests ?? (d.maxFailureResolutionReached ? null : []),
          remaining_pr_numbers: d.remainingPullRequests,
          max_failure_resolution_reached: d.maxFailureResolutionReached,
          session_id: pr.sessionId,
          train_car_id: d.trainCarId,
          batch_id: d.trainCarId,
          batch_name: d.batchName ?? null,
        },
        d.batchPullRequestNumbers,
      ),
    ),

  'merge_queue.pull_request_merged': (d) => [
    draft(d, 'action.queue.merged', d.pullRequest, {
      branch: d.baseRef,
      partition_names: d.partitionNames,
      queue_name: d.queueName,
      queued_at: d.queuedAt,
      priority_rule_name: d.priorityRuleName,
      session_id: d.sessionId,
      merge_commit_sha: d.mergeCommitSha ?? null,
    }),
  ],

  // dequeue_code and unsuccessful_checks go beyond the spec table: the CLI reads dequeue_code
  // (client-contract §1.6) and the E4 fixture carries both.
  'merge_queue.pull_request_left': (d) => [
    draft(d, 'action.queue.leave', d.pullRequest, {
      reason: d.reason,
      merged: d.merged,
      queue_name: d.queueName,
      branch: d.baseRef,
      partition_name: d.partitionName,
      queued_at: d.queuedAt,
      seconds_waiting_for_schedule: d.secondsWaitingForSchedule,
      seconds_waiting_for_freeze: d.secondsWaitingForFreeze,
      priority_rule_name: d.priorityRuleName,
      conditions_evaluation: d.conditionsEvaluation ? conditionResultJson(d.conditionsEvaluation) : null,
      checks: d.checks.map(queueCheckJson),
      unsuccessful_checks: d.unsuccessfulChecks.map(queueCheckJson),
      pull_request_head_sha: d.pullRequestHeadSha,
      session_id: d.sessionId,
      dequeue_code: d.dequeueCode,
      batch_id: d.batch?.id ?? null,
      scopes: d.batch?.scopes ?? null,
      all_scopes: d.batch?.allScopes ?? null,
    }),
    // A manual removal (command, API, dashboard) is also the dequeue action having run.
    ...(d.dequeueCode === 'PR_MANUALLY_DEQUEUED' ? [draft(d, 'action.dequeue', d.pullRequest, {})] : []),
  ],

  'merge_queue.queue_size_changed': (d) => [
    draft(d, 'action.queue.change', null, {
      queue_name: d.queueName,
      partition_name: d.partitionName,
      priority_rule_name: d.priorityRuleName,
      size: d.size,
    }),
  ],

  'merge_queue.running_checks_changed': (d) => [
    draft(d, 'action.queue.checks.change', null, {
      queue_name: d.queueName,
      partition_name: d.partitionName,
      running_checks: d.runningChecks,
    }),
  ],

  'merge_queue.checks_postponed': (d) => [
    draft(d, 'action.queue.checks_postponed', d.pullRequest, {
      branch: d.baseRef,
      partition_name: d.partitionName,
      priority_rule_name: d.priorityRuleName,
      queue_name: d.queueName,
      queued_at: d.queuedAt,
      reason: d.reason,
      session_id: d.sessionId,
    }),
  ],

  // Not shown in the spec; the fields of Mergify's published EventQueueConflictDeferredMetadata.
  'merge_queue.conflict_deferred': (d) => [
    draft(d, 'action.queue.conflict_deferred', d.pullRequest, {
      branch: d.baseRef,
      partition_name: d.partitionName,
      priority_rule_name: d.priorityRuleName,
      queue_name: d.queueName,
      queued_at: d.queuedAt,
      reason: d.reason,
      session_id: d.sessionId,
      blocking_pull_request_numbers: d.blockingPullRequests,
    }),
  ],

  // Not shown in the spec: which pull requests were put together, and why (batches of two or more).
  'merge_queue.batch_composed': (d) =>
    (d.pullRequests.length < 2 ? [] : d.pullRequests).map((pr) =>
      draft(d, 'action.queue.batch_composition', pr.number, {
        branch: d.baseRef,
        partition_name: d.partitionName,
        queue_name: d.queueName,
        priority_rule_name: pr.priorityRuleName,
        queued_at: pr.queuedAt,
        pull_request_numbers: numbers(d.pullRequests),
        batch_reason: d.batchReason,
        train_car_id: d.trainCarId,
        session_id: pr.sessionId,
      }),
    ),

  // Commands without a log type of their own (refresh, rebase...) are logged by the action they
  // cause, not here: zero records.
  'pull_request.command_received': (d) => {
    const type = COMMAND_LOG_TYPES[d.command];
    if (!type) return [];
    return [
      draft(d, type, d.pullRequest, {
        author: {
          login: d.author.login,
          id: d.author.id,
          type: d.author.type,
          ...(d.author.avatarUrl !== undefined ? { avatar_url: d.author.avatarUrl } : {}),
        },
        comment_id: d.commentId,
        session_id: d.sessionId,
        command_trigger: d.commandTrigger,
        trigger_comment_url: d.triggerCommentUrl,
      }),
    ];
  },
};

/** The queue's own bookkeeping (state it needs, nothing a user reads in the log): no records. */
const noRecord = (): LogRecordDraft[] => [];

const bookkeeping: { [T in BookkeepingType]: Mapper<T> } = {
  'merge_queue.configuration_applied': noRecord,
  'merge_queue.batch_preparing': noRecord,
  'merge_queue.batch_passed': noRecord,
  'merge_queue.batch_failed': noRecord,
  'merge_queue.batch_dissolved': noRecord,
  'merge_queue.pause_observed': noRecord,
  'merge_queue.freeze_observed': noRecord,
  'merge_queue.scopes_set': noRecord,
  'merge_queue.base_moved': noRecord,
  'merge_queue.priority_changed': noRecord,
  'merge_queue.draft_closed': noRecord,
  'merge_queue.merge_postponed': noRecord,
  'merge_queue.draft_orphaned': noRecord,
  'merge_queue.draft_branch_deleted': noRecord,
  // The log records the removal itself (action.queue.leave), when it runs.
  'merge_queue.dequeue_requested': noRecord,
};

export const bookkeepingEventTypes = Object.keys(bookkeeping) as BookkeepingType[];

export const mergeQueueLogMapping: LogMapping = logMappingOfData({ ...mappers, ...bookkeeping });

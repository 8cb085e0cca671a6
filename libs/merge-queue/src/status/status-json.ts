import type { PullRequestLabel } from '@switchyard/code-host';
import { priorityAlias } from '@switchyard/config';
import { deterministicUuid } from '../domain/hashing';
import { batchSizeBounds, type QueueRulePolicy } from '../domain/policy';
import { policyOf, type Batch, type QueueEntry } from '../domain/state';
import { batchStatusOf, waitingBatchOf, type BatchStatusCode } from '../domain/presentation';
import { batchNameOf, checksTimeoutSeconds, isFrozen, laneKeysOf, queueOrder, ruleOf } from '../domain/train';
import type { Estimate, QueueEstimates } from './eta';
import type { BatchConditions } from './merge-conditions';
import type { PullRequestFacts } from './queue-metadata';
import type { BatchFacts, DepartedBatch, QueueStatusFold } from './status-fold';

/** The spec's MergeQueueStatus, Batch and MergeQueuePullRequest, rendered from a status fold. */
export interface MergeQueuePullRequestJson {
  number: number;
  title: string;
  url: string;
  author: { id: number; login: string };
  queued_at: string;
  priority_alias: string;
  priority_rule_name: string;
  labels: string[];
  scopes: string[];
  all_scopes: boolean | null;
  github_labels: PullRequestLabel[] | null;
  estimated_merge_at: string | null;
  estimated_ci_finish_at: string | null;
  conflict_with_pull_requests: number[] | null;
  batch_reason: BatchReasonJson | null;
  is_frozen: boolean;
  dequeue_requested: boolean;
  depends_on_pull_requests: number[] | null;
}

export interface BatchReasonJson {
  kind: 'scope' | 'directory' | 'queue_order';
  shared_scopes: string[];
  shared_directories: string[];
  peer_pull_request_numbers: number[];
  affinity_score: number;
}

export interface BatchJson {
  id: string;
  name: string;
  parent_ids: string[];
  status: {
    code: BatchStatusCode;
    batch_filled_slots: number | null;
    max_batch_slots: number | null;
    batch_max_start_at: string | null;
    retries: number;
    max_retries: number;
  };
  started_at: string | null;
  estimated_merge_at: string | null;
  estimated_ci_finish_at: string | null;
  ci_finished_at: string | null;
  scopes: string[];
  all_scopes: boolean | null;
  queue_rule_name: string;
  checks_summary: { passed: number; total: number };
  pull_requests: MergeQueuePullRequestJson[];
  checks_timeout_at: string | null;
  intermediate_results_skipped: boolean;
  queue_pull_request_number: number | null;
  sub_batches: BatchJson[] | null;
}

export interface MergeQueueStatusJson {
  batches: BatchJson[];
  waiting_pull_requests: MergeQueuePullRequestJson[];
  mode: 'serial' | 'parallel' | 'isolated';
  scope_queues: Record<string, string[]>;
  pause: { paused: boolean; reason: string | null; paused_at: string | null } | null;
}

/** What the code host last said about the queue's pull requests and batch drafts. */
export type SnapshotsByNumber = ReadonlyMap<number, PullRequestFacts>;

export const iso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

const QUEUE_CHECK_NAME = 'Mergify Merge Queue';
const PASSED = new Set(['success', 'neutral', 'skipped']);

export interface RenderContext {
  fold: QueueStatusFold;
  estimates: QueueEstimates;
  snapshots: SnapshotsByNumber;
  repository: string;
  /** Merge conditions of the batches checked now, by batch id (live answers only: not from events). */
  conditions?: ReadonlyMap<string, BatchConditions>;
}

function batchReasonOf(ctx: RenderContext, batch: Batch, number: number): BatchReasonJson {
  const peers = batch.pullRequests.filter((n) => n !== number);
  const own = ctx.fold.queue.pullRequests[number]?.scopes ?? [];
  const peerScopes = peers.flatMap((n) => ctx.fold.queue.pullRequests[n]?.scopes ?? []);
  const shared = own.filter((scope) => peerScopes.includes(scope));
  const union = new Set([...own, ...peerScopes]);
  return {
    kind: shared.length > 0 ? 'scope' : 'queue_order',
    shared_scopes: shared,
    shared_directories: [],
    peer_pull_request_numbers: peers,
    affinity_score: union.size === 0 ? 0 : shared.length / union.size,
  };
}

export function pullRequestJson(
  ctx: RenderContext,
  pr: QueueEntry,
  batch: Batch | null,
): MergeQueuePullRequestJson {
  const snapshot = ctx.snapshots.get(pr.number);
  const estimate: Estimate | undefined = ctx.estimates.pullRequests[pr.number];
  return {
    number: pr.number,
    title: snapshot?.title ?? '',
    url: `https://github.com/${snapshot?.repository.fullName ?? ctx.repository}/pull/${pr.number}`,
    // 0 for an author the code host never described to us (no snapshot, or one from before ids were kept).
    author: { id: snapshot?.authorId ?? 0, login: snapshot?.author ?? '' },
    queued_at: iso(pr.queuedAt)!,
    priority_alias: priorityAlias(pr.priority),
    priority_rule_name: pr.priorityRuleName ?? '',
    labels: snapshot?.labels ?? [],
    scopes: pr.scopes,
    all_scopes: pr.allScopes,
    github_labels: snapshot?.labelDetails ?? null,
    estimated_merge_at: iso(estimate?.mergeAt),
    estimated_ci_finish_at: iso(estimate?.ciFinishAt),
    conflict_with_pull_requests: pr.deferredBy && pr.deferredBy.length > 0 ? pr.deferredBy : null,
    batch_reason: batch ? batchReasonOf(ctx, batch, pr.number) : null,
    is_frozen: isFrozen(pr),
    dequeue_requested: pr.dequeueRequested === true,
    depends_on_pull_requests: pr.dependsOn.length > 0 ? pr.dependsOn : null,
  };
}

export const checksTimeoutAtOf = (fold: QueueStatusFold, batch: Batch): number | null => {
  const rule = ruleOf(fold.queue, batch.queueName);
  const seconds = rule ? checksTimeoutSeconds(fold.queue, rule) : null;
  return seconds === null || batch.checksStartedAt === null || batch.phase !== 'running'
    ? null
    : batch.checksStartedAt + seconds * 1000;
};

const maxSlotsOf = (rule: QueueRulePolicy | undefined): number | null =>
  rule ? batchSizeBounds(rule.batchSize).max : null;

function checksSummaryOf(ctx: RenderContext, batch: Batch): { passed: number; total: number } {
  const draft = batch.checkPullRequest === null ? undefined : ctx.snapshots.get(batch.checkPullRequest);
  const checks = (draft?.checks ?? []).filter((check) => check.name !== QUEUE_CHECK_NAME);
  return { passed: checks.filter((check) => PASSED.has(check.state)).length, total: checks.length };
}

/**
 * A batch of the train, or one that left it but is still shown (`departed`: merged, or waiting for
 * requeue). A batch merging one pull request at a time lists the merged ones too, first.
 */
export function batchJson(ctx: RenderContext, batch: Batch, departed?: DepartedBatch): BatchJson {
  const state = ctx.fold.queue;
  const rule = ruleOf(state, batch.queueName);
  const facts: BatchFacts | undefined = departed ? departed.facts : ctx.fold.batches[batch.id];
  const estimate = departed ? undefined : ctx.estimates.batches[batch.id];
  const merged = facts?.merged ?? [];
  const numbers =
    departed === undefined ? [...merged.map((pr) => pr.number), ...batch.pullRequests] : batch.pullRequests;
  const entryOf = (n: number): QueueEntry | undefined =>
    state.pullRequests[n] ?? merged.find((pr) => pr.number === n);
  const code: BatchStatusCode =
    departed?.code ??
    (ctx.conditions?.get(batch.id)?.waitingSchedule ? 'waiting_schedule' : batchStatusOf(state, batch));
  return {
    id: batch.id,
    name: batchNameOf(batch.queueName, numbers),
    parent_ids: batch.parentIds,
    status: {
      code,
      batch_filled_slots: batch.pullRequests.length,
      max_batch_slots: maxSlotsOf(rule),
      batch_max_start_at: null,
      retries: batch.attempt,
      max_retries: rule?.maxChecksRetries ?? 0,
    },
    started_at: iso(batch.checksStartedAt),
    estimated_merge_at: iso(estimate?.mergeAt),
    estimated_ci_finish_at: iso(estimate?.ciFinishAt),
    ci_finished_at: iso(facts?.ciFinishedAt),
    scopes: batch.scopes,
    all_scopes: batch.allScopes,
    queue_rule_name: batch.queueName,
    checks_summary: checksSummaryOf(ctx, batch),
    pull_requests: numbers.flatMap((n) => {
      const pr = entryOf(n);
      return pr ? [pullRequestJson(ctx, pr, { ...batch, pullRequests: numbers })] : [];
    }),
    checks_timeout_at: departed ? null : iso(checksTimeoutAtOf(ctx.fold, batch)),
    intermediate_results_skipped: facts?.covered ?? false,
    queue_pull_request_number: batch.checkPullRequest,
    sub_batches: null,
  };
}

/** A bisection shows as one batch, `bisecting`, whose sub-batches are the splits being checked. */
function bisectionsJson(ctx: RenderContext): BatchJson[] {
  const state = ctx.fold.queue;
  return Object.values(state.bisections).map((bisection) => {
    const splits = state.batches.filter((b) => b.bisection?.bisectionId === bisection.id);
    const rule = ruleOf(state, bisection.queueName);
    const subBatches = splits.map((split) => batchJson(ctx, split));
    const estimates = splits.map((split) => ctx.estimates.batches[split.id]);
    const latest = (pick: (e: Estimate) => number | null) => {
      const values = estimates.map((e) => (e ? pick(e) : null));
      return values.length === 0 || values.some((v) => v === null) ? null : Math.max(...(values as number[]));
    };
    return {
      id: bisection.id,
      name: batchNameOf(bisection.queueName, bisection.original),
      parent_ids: [],
      status: {
        code: 'bisecting',
        batch_filled_slots: bisection.original.length,
        max_batch_slots: maxSlotsOf(rule),
        batch_max_start_at: null,
        retries: 0,
        max_retries: rule?.maxChecksRetries ?? 0,
      },
      started_at: iso(Math.min(...splits.map((s) => s.composedAt))) ?? null,
      estimated_merge_at: iso(latest((e) => e.mergeAt)),
      estimated_ci_finish_at: iso(latest((e) => e.ciFinishAt)),
      ci_finished_at: null,
      scopes: [...new Set(splits.flatMap((s) => s.scopes))].sort(),
      all_scopes: splits.some((s) => s.allScopes),
      queue_rule_name: bisection.queueName,
      checks_summary: { passed: 0, total: 0 },
      pull_requests: bisection.pending.flatMap((n) => {
        const pr = state.pullRequests[n];
        return pr ? [pullRequestJson(ctx, pr, null)] : [];
      }),
      checks_timeout_at: null,
      intermediate_results_skipped: false,
      queue_pull_request_number: null,
      sub_batches: subBatches,
    } satisfies BatchJson;
  });
}

/** Waiting pull requests show the batch they would seed: how full it is and when it starts anyway. */
function waitingBatchesJson(ctx: RenderContext, waiting: QueueEntry[]): BatchJson[] {
  const state = ctx.fold.queue;
  const seeds = new Map<string, QueueEntry[]>();
  for (const pr of waiting) seeds.set(pr.queueName, [...(seeds.get(pr.queueName) ?? []), pr]);
  const out: BatchJson[] = [];
  for (const [queueName, members] of seeds) {
    const rule = ruleOf(state, queueName);
    const max = maxSlotsOf(rule) ?? 1;
    if (max <= 1) continue; // a batch of one never waits to fill
    const filling = members.slice(0, max);
    const seed = waitingBatchOf(state, filling[0]!.number);
    const frozen = filling.some(isFrozen);
    const estimate = ctx.estimates.pullRequests[filling[0]!.number];
    out.push({
      id: deterministicUuid(
        `${ctx.repository}:${state.baseRef ?? ''}:waiting:${queueName}:${filling[0]!.number}`,
      ),
      name: `${queueName} ${filling.map((pr) => `#${pr.number}`).join(' ')}`,
      parent_ids: [],
      status: {
        code: frozen ? 'frozen' : 'waiting_for_batch',
        batch_filled_slots: seed?.filledSlots ?? filling.length,
        max_batch_slots: max,
        batch_max_start_at: iso(seed?.startAt),
        retries: 0,
        max_retries: rule?.maxChecksRetries ?? 0,
      },
      started_at: null,
      estimated_merge_at: iso(estimate?.mergeAt),
      estimated_ci_finish_at: iso(estimate?.ciFinishAt),
      ci_finished_at: null,
      scopes: [...new Set(filling.flatMap((pr) => pr.scopes))].sort(),
      all_scopes: filling.some((pr) => pr.allScopes),
      queue_rule_name: queueName,
      checks_summary: { passed: 0, total: 0 },
      pull_requests: filling.map((pr) => pullRequestJson(ctx, pr, null)),
      checks_timeout_at: null,
      intermediate_results_skipped: false,
      queue_pull_request_number: null,
      sub_batches: null,
    });
  }
  return out;
}

export function queueStatusJson(ctx: RenderContext): MergeQueueStatusJson {
  const state = ctx.fold.queue;
  const inBisection = (batch: Batch) =>
    batch.bisection !== null && state.bisections[batch.bisection.bisectionId] !== undefined;
  const departed = ctx.fold.departed ?? [];
  const shown = (code: DepartedBatch['code']) =>
    departed.filter((d) => d.code === code).map((d) => batchJson(ctx, d.batch, d));
  const batches = [
    ...shown('merged'),
    ...state.batches.filter((batch) => !inBisection(batch)).map((batch) => batchJson(ctx, batch)),
    ...bisectionsJson(ctx),
    ...shown('waiting_for_requeue'),
  ];
  // Pull requests of a batch waiting for requeue are listed in it, not among the waiting ones.
  const requeued = new Set(
    departed.flatMap((d) => (d.code === 'waiting_for_requeue' ? d.batch.pullRequests : [])),
  );
  const waiting = queueOrder(
    state,
    Object.values(state.pullRequests).filter((pr) => pr.batchId === null && !requeued.has(pr.number)),
  );
  const scopeQueues: Record<string, string[]> = {};
  for (const batch of state.batches)
    for (const lane of batch.allScopes ? ['__all__'] : laneKeysOf(batch.scopes))
      scopeQueues[lane] = [...(scopeQueues[lane] ?? []), batch.id];
  return {
    batches: [...batches, ...waitingBatchesJson(ctx, waiting)],
    waiting_pull_requests: waiting.map((pr) => pullRequestJson(ctx, pr, null)),
    mode: policyOf(state).mergeQueue.mode,
    scope_queues: scopeQueues,
    pause: state.paused
      ? { paused: true, reason: state.pauseReason, paused_at: iso(ctx.fold.pausedAt) }
      : null,
  };
}

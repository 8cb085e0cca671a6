import { batchSizeBounds } from '../domain/policy';
import { policyOf, type Batch } from '../domain/state';
import { isFrozen, queueOrder, ruleOf } from '../domain/train';
import { waitingBatchOf } from '../domain/presentation';
import type { QueueStatusFold } from './status-fold';

/**
 * The ETA model (docs/queue-eta.md): CI lasts the rolling median of the durations observed for the
 * queue rule; a batch's CI ends its median after it starts, and it starts when one of the
 * max_parallel_checks slots frees; a batch merges once its CI ended and its parent batches (its
 * lane ahead) merged. Waiting pull requests fill future batches of the rule's batch size in queue
 * order. Anything frozen, and everything behind it in its lane, has no estimate.
 */
export interface Estimate {
  ciFinishAt: number | null;
  mergeAt: number | null;
}

export interface QueueEstimates {
  batches: Record<string, Estimate>;
  pullRequests: Record<number, Estimate>;
}

export const median = (values: readonly number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The rule's median CI duration in ms; another rule's observations when it has none of its own. */
const ciMillisOf = (fold: QueueStatusFold, rule: string): number | null => {
  const own = median(fold.ciSeconds[rule] ?? []);
  if (own !== null) return own * 1000;
  const any = median(Object.values(fold.ciSeconds).flat());
  return any === null ? null : any * 1000;
};

const maxOrNull = (values: Array<number | null>): number | null =>
  values.some((v) => v === null) ? null : Math.max(...(values as number[]));

export function estimateQueue(fold: QueueStatusFold, now: number): QueueEstimates {
  const state = fold.queue;
  const policy = policyOf(state);
  const slots: number[] = [];
  const batches: Record<string, Estimate> = {};
  const pullRequests: Record<number, Estimate> = {};
  const frozenBatch = (batch: Batch) =>
    batch.pullRequests.some((n) => {
      const pr = state.pullRequests[n];
      return pr !== undefined && isFrozen(pr);
    });

  for (const batch of state.batches) {
    const ci = ciMillisOf(fold, batch.queueName);
    const facts = fold.batches[batch.id];
    let ciFinishAt: number | null;
    if (facts?.ciFinishedAt != null) ciFinishAt = facts.ciFinishedAt;
    else if (ci === null) ciFinishAt = null;
    else if (batch.phase === 'running' && batch.checksStartedAt !== null)
      ciFinishAt = Math.max(now, batch.checksStartedAt + ci);
    else if (batch.phase === 'preparing') ciFinishAt = now + ci;
    else ciFinishAt = null; // waiting for a slot: placed below
    if (ciFinishAt !== null && (batch.phase === 'running' || batch.phase === 'preparing'))
      slots.push(ciFinishAt);
    batches[batch.id] = { ciFinishAt, mergeAt: null };
  }
  const takeSlot = (ci: number): number => {
    slots.sort((a, b) => a - b);
    const free = slots.length < policy.mergeQueue.maxParallelChecks ? now : Math.max(now, slots.shift()!);
    slots.push(free + ci);
    return free + ci;
  };
  let lastMerge = now;
  for (const batch of state.batches) {
    const estimate = batches[batch.id]!;
    const ci = ciMillisOf(fold, batch.queueName);
    if (estimate.ciFinishAt === null && batch.phase === 'waiting_slot' && ci !== null)
      estimate.ciFinishAt = takeSlot(ci);
    const parents = batch.parentIds.map((id) => batches[id]?.mergeAt ?? null);
    const merge = frozenBatch(batch) ? null : maxOrNull([estimate.ciFinishAt, ...parents]);
    estimate.mergeAt = merge === null ? null : Math.max(merge, now);
    if (estimate.mergeAt !== null) lastMerge = Math.max(lastMerge, estimate.mergeAt);
    for (const n of batch.pullRequests) pullRequests[n] = estimate;
  }

  // Waiting pull requests: future batches of the rule's size, in queue order, one lane.
  const waiting = queueOrder(
    state,
    Object.values(state.pullRequests).filter((pr) => pr.batchId === null),
  );
  let blocked = Object.values(batches).some((b) => b.mergeAt === null) && state.batches.length > 0;
  let chunk: { rule: string; size: number; members: number[] } | null = null;
  // Every waiting pull request of a rule seeds the same next batch (its oldest waiting one sets
  // the start): found once per rule, not once per chunk (a scan of the queue each).
  const seeds = new Map<string, ReturnType<typeof waitingBatchOf>>();
  const seedOf = (rule: string, member: number) => {
    if (!seeds.has(rule)) seeds.set(rule, waitingBatchOf(state, member));
    return seeds.get(rule)!;
  };
  const closeChunk = () => {
    if (!chunk) return;
    const ci = ciMillisOf(fold, chunk.rule);
    const first = seedOf(chunk.rule, chunk.members[0]!);
    const ciFinishAt =
      ci === null || blocked ? null : takeSlot(ci) + Math.max(0, (first?.startAt ?? now) - now);
    const mergeAt = ciFinishAt === null ? null : Math.max(ciFinishAt, lastMerge);
    if (mergeAt !== null) lastMerge = mergeAt;
    for (const n of chunk.members) pullRequests[n] = { ciFinishAt, mergeAt };
    chunk = null;
  };
  for (const pr of waiting) {
    if (isFrozen(pr)) blocked = true;
    const rule = ruleOf(state, pr.queueName);
    const size = rule ? batchSizeBounds(rule.batchSize).max : 1;
    if (!chunk || chunk.rule !== pr.queueName || chunk.members.length >= chunk.size) {
      closeChunk();
      chunk = { rule: pr.queueName, size, members: [] };
    }
    chunk.members.push(pr.number);
  }
  closeChunk();
  return { batches, pullRequests };
}

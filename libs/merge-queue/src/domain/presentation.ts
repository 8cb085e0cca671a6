import { batchSizeBounds } from './policy';
import type { Batch, QueueState } from './state';
import { ancestorsOf, isFrozen, positions, ruleOf } from './train';

/**
 * How the queue reads from outside (the status endpoints and the queue's check run): batch status
 * codes of the spec's BatchStatus, positions, frozen flags. Pure reads of the state.
 */
export type BatchStatusCode =
  | 'preparing'
  | 'waiting_for_batch'
  | 'waiting_for_checks_slot'
  | 'running'
  | 'bisecting'
  | 'waiting_for_previous_batches'
  | 'waiting_for_requeue'
  | 'waiting_schedule'
  | 'frozen'
  | 'waiting_for_merge'
  | 'merged'
  | 'failed';

export function batchStatusOf(state: QueueState, batch: Batch): BatchStatusCode {
  switch (batch.phase) {
    case 'waiting_slot':
      return 'waiting_for_checks_slot';
    case 'preparing':
      return 'preparing';
    case 'running':
      return 'running';
    case 'passed':
      return batch.pullRequests.some((n) => {
        const pr = state.pullRequests[n];
        return pr !== undefined && isFrozen(pr);
      })
        ? 'frozen'
        : 'waiting_for_merge';
    case 'failed':
      // Known to fail, but the cause may still be ahead: parked until the batches ahead resolve.
      return ancestorsOf(state, batch).length > 0 || batch.knownFailure
        ? 'waiting_for_previous_batches'
        : 'failed';
  }
}

/** 0-based position over the whole train (embarked first, then waiting), or -1 (§2.1). */
export const queuePositionOf = (state: QueueState, pullRequest: number): number =>
  positions(state).indexOf(pullRequest);

/** The batch a waiting pull request would seed: how full it is and when it starts anyway (§2.2). */
export function waitingBatchOf(
  state: QueueState,
  pullRequest: number,
): { filledSlots: number; maxSlots: number; startAt: number } | null {
  const pr = state.pullRequests[pullRequest];
  if (!pr || pr.batchId !== null) return null;
  const rule = ruleOf(state, pr.queueName);
  if (!rule) return null;
  const waiting = Object.values(state.pullRequests).filter(
    (other) => other.batchId === null && other.queueName === pr.queueName,
  );
  const seed = waiting.reduce(
    (oldest, other) => (other.waitingSince < oldest.waitingSince ? other : oldest),
    pr,
  );
  const { max } = batchSizeBounds(rule.batchSize);
  return {
    filledSlots: Math.min(max, waiting.length),
    maxSlots: max,
    startAt: seed.waitingSince + rule.batchMaxWaitTime * 1000,
  };
}

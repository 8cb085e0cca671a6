import type { Dequeue, RequestDequeue } from '../domain/commands';
import { mergeQueueDecider } from '../domain/decider';
import type { MergeQueueEvent } from '../domain/events';
import type { QueueState } from '../domain/state';
import { holdsSlot } from '../domain/train';

/** The spec's DequeueImpact. */
export interface DequeueImpact {
  interrupted_batches: number;
  rechecked_pull_requests: number;
  cascaded_pull_requests: number;
}

/** What `POST .../dequeue` records: the removal is asked for, and carried out by `apiDequeue`. */
export const apiDequeueRequest = (
  repository: string,
  baseRef: string,
  pullRequest: number,
  at: number,
): RequestDequeue => ({
  kind: 'request_dequeue',
  repository,
  baseRef,
  at,
  pullRequest,
  trigger: API_DEQUEUE_TRIGGER,
});

const API_DEQUEUE_TRIGGER = 'API: dequeue';

/** The command that carries out a removal asked for through the API. */
export const apiDequeue = (
  repository: string,
  baseRef: string,
  pullRequest: number,
  at: number,
): Dequeue => ({
  kind: 'dequeue',
  repository,
  baseRef,
  at,
  pullRequest,
  code: 'PR_MANUALLY_DEQUEUED',
  reason: 'The pull request was dequeued through the merge-queue API',
  trigger: API_DEQUEUE_TRIGGER,
});

/**
 * What a dequeue did, read from the events it produced on the queue as it was: the batches that
 * held a checks slot and were dissolved (interrupted, their other pull requests re-embarked), those
 * other pull requests, and the stack successors that left with it.
 */
export function impactOfEvents(
  before: QueueState,
  pullRequest: number,
  events: readonly MergeQueueEvent[],
): DequeueImpact {
  const cascaded = new Set<number>();
  for (const event of events)
    if (
      event.type === 'merge_queue.pull_request_left' &&
      event.data.pullRequest !== pullRequest &&
      !event.data.merged
    )
      cascaded.add(event.data.pullRequest);
  const interrupted = new Set<string>();
  const rechecked = new Set<number>();
  for (const event of events) {
    if (event.type !== 'merge_queue.batch_dissolved') continue;
    const batch = before.batches.find((b) => b.id === event.data.trainCarId);
    if (!batch || !holdsSlot(batch)) continue;
    interrupted.add(batch.id);
    for (const n of event.data.returnedPullRequests)
      if (n !== pullRequest && !cascaded.has(n)) rechecked.add(n);
  }
  return {
    interrupted_batches: interrupted.size,
    rechecked_pull_requests: rechecked.size,
    cascaded_pull_requests: cascaded.size,
  };
}

/** The planner's own dequeue run on the current state without storing anything. */
export function dryRunDequeue(state: QueueState, command: Dequeue): DequeueImpact {
  return impactOfEvents(state, command.pullRequest, mergeQueueDecider.decide(command, state));
}

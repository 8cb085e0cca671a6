import type { Clock } from '@switchyard/kernel';
import type { Reactor } from '@switchyard/projection';
import { mergeQueueStreamId, snapshottingMergeQueueDecider } from '../application/merge-queue.stream';
import type { DequeueRequested } from '../domain/events';
import { apiDequeue } from './dequeue-impact';

/**
 * Carries out the removals users ask for through `POST merge-queue/pull/{n}/dequeue`: the API only
 * records the request (the pull request stays listed with `dequeue_requested: true`), and this
 * reactor, where the processors run, issues the dequeue itself — the very command the
 * dequeue-impact dry run predicts.
 */
export function createDequeueRequestsReactor(deps: { clock: Clock }): Reactor {
  return {
    name: 'merge_queue.dequeue_requests',
    eventTypes: ['merge_queue.dequeue_requested'],
    async react(event, context) {
      const { repository, baseRef, pullRequest } = event.data as DequeueRequested['data'];
      await context.issue(
        mergeQueueStreamId(repository, baseRef),
        snapshottingMergeQueueDecider,
        apiDequeue(repository, baseRef, pullRequest, deps.clock.now().getTime()),
      );
    },
  };
}

import type { RecordedEvent } from '@switchyard/event-store';
import { FixedClock } from '@switchyard/kernel';
import type { ReactionContext } from '@switchyard/projection';
import { mergeQueueStreamId } from '../application/merge-queue.stream';
import { minutes } from '../testing/queue-commands';
import { apiDequeue } from './dequeue-impact';
import { createDequeueRequestsReactor } from './dequeue-requests.reactor';

describe('dequeue-requests reactor', () => {
  it("answers a recorded request with the API's dequeue on the pull request's queue", async () => {
    const issued: Array<{ streamId: string; command: unknown }> = [];
    const context = {
      signal: new AbortController().signal,
      issue: async (streamId: string, _decider: unknown, command: unknown) => {
        issued.push({ streamId, command });
        return { events: [], position: 0n, alreadyApplied: false };
      },
    } as unknown as ReactionContext;
    const reactor = createDequeueRequestsReactor({ clock: new FixedClock(new Date(minutes(9))) });
    const event = {
      type: 'merge_queue.dequeue_requested',
      data: {
        repository: 'acme/mono',
        baseRef: 'main',
        trigger: 'API: dequeue',
        occurredAt: new Date(minutes(8)).toISOString(),
        pullRequest: 3,
      },
    } as unknown as RecordedEvent;
    await reactor.react(event, context);
    expect(issued).toEqual([
      {
        streamId: mergeQueueStreamId('acme/mono', 'main'),
        command: apiDequeue('acme/mono', 'main', 3, minutes(9)),
      },
    ]);
    expect(reactor.eventTypes).toEqual(['merge_queue.dequeue_requested']);
  });
});

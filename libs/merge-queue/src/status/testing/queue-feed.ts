import { mergeQueueStreamId } from '../../application/merge-queue.stream';
import { queueWorkload, type WorkloadAppend } from '../../testing/queue-workload';

const from = new Date('2026-07-01T00:00:00Z');
const to = new Date('2026-07-04T00:00:00Z');

/**
 * Queue workloads of several repositories, their appends taken in turn. The workload writes each
 * batch on a stream of its own; `onQueueStreams` moves them to their queue's stream, as the
 * engine writes them.
 */
export function interleavedWorkloads(
  repositories: readonly string[],
  eventsEach: number,
  options: { onQueueStreams: boolean },
): WorkloadAppend[] {
  const generators = repositories.map((repository, index) =>
    queueWorkload({ repository, seed: 11 + index, from, to, events: eventsEach }),
  );
  const appends: WorkloadAppend[] = [];
  for (let live = generators; live.length > 0;) {
    live = live.filter((generator) => {
      const next = generator.next();
      if (!next.done) appends.push(next.value);
      return !next.done;
    });
  }
  if (!options.onQueueStreams) return appends;
  return appends.map(({ events }) => {
    const { repository, baseRef } = events[0]!.data;
    return { streamId: mergeQueueStreamId(repository, baseRef), events };
  });
}

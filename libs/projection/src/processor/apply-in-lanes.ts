import type { RecordedEvent } from '@switchyard/event-store';
import { LONG_WORK, type SqlExecutor } from '@switchyard/sql';
import { enterActiveGeneration } from '../generations/enter-active-generation';
import type { Projection } from '../projection';

/**
 * At most this many transactions per batch: lanes share the pool with the API, and a catch-up
 * batch may span hundreds of lanes. A lane beyond it shares the transaction of an earlier one,
 * which keeps it apart from the other transactions all the same.
 */
export const MAX_LANES = 4;

/**
 * The batch's events by lane (Projection.laneOf), each lane in feed order, lanes beyond
 * MAX_LANES folded onto the first ones; one lane without laneOf.
 */
export function lanesOf(events: readonly RecordedEvent[], projection: Projection): RecordedEvent[][] {
  if (!projection.laneOf) return [[...events]];
  const laneIndex = new Map<string, number>();
  const lanes: RecordedEvent[][] = [];
  for (const event of events) {
    const key = projection.laneOf(event);
    let index = laneIndex.get(key);
    if (index === undefined) laneIndex.set(key, (index = laneIndex.size % MAX_LANES));
    (lanes[index] ??= []).push(event);
  }
  return lanes;
}

/**
 * Applies each lane in a transaction of its own, all at once, so a batch of several uploads uses
 * more than one database backend. Every lane is settled before this returns or throws, so a retry
 * of the events never runs beside a lane still writing.
 */
export async function applyInLanes(
  executor: SqlExecutor,
  projection: Projection,
  lanes: readonly (readonly RecordedEvent[])[],
): Promise<void> {
  const outcomes = await Promise.allSettled(
    lanes.map((lane) =>
      executor.transaction(async (tx) => {
        await enterActiveGeneration(tx, projection.name, { asynchronousCommit: true, shared: true });
        await projection.apply(tx, lane);
      }, LONG_WORK),
    ),
  );
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import { enterActiveGeneration } from '../generations/enter-active-generation';
import type { Projection } from '../projection';

/** The batch's events by lane (Projection.laneOf), each lane in feed order; one lane without it. */
export function lanesOf(events: readonly RecordedEvent[], projection: Projection): RecordedEvent[][] {
  if (!projection.laneOf) return [[...events]];
  const lanes = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    const key = projection.laneOf(event);
    const lane = lanes.get(key);
    if (lane) lane.push(event);
    else lanes.set(key, [event]);
  }
  return [...lanes.values()];
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
      }),
    ),
  );
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

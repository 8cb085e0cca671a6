import {
  comparePositions,
  type EventFilter,
  type EventStore,
  type Position,
  type SqlExecutor,
} from '@switchyard/event-store';
import { advanceCheckpoint, resetCheckpoint } from '../checkpoint/checkpoint-store';
import { ensureCheckpointTable } from '../checkpoint/checkpoint-table';
import type { CheckpointPublisher } from '../cross-process/checkpoint-signal';
import { ProjectionLockedError, acquireProjectionLock } from '../lock/projection-lock';
import type { Projection } from '../projection';

export interface RebuildOptions {
  /** The read-model database. */
  executor: SqlExecutor;
  store: EventStore;
  projection: Projection;
  /** Events per transaction. Default 1000. */
  batchSize?: number;
  /** Called after the reset and after each batch; total is null when the store cannot count. */
  onProgress?: (done: number, total: number | null) => void;
  /** Wakes waiting readers in other processes as the rebuilt read model moves. */
  publisher?: CheckpointPublisher;
}

export interface RebuildResult {
  projection: string;
  version: number;
  /** Events applied. */
  events: number;
  /** Rows in the rebuilt read model, when the projection can count them. */
  records?: number;
  seconds: number;
  /** Where the checkpoint was left; a runner started afterwards continues from here. */
  position: Position | 'start';
}

/**
 * Replays a projection from the first event: takes its lock (refusing when a live runner holds
 * it), drops its rows and resets its checkpoint in one transaction, then applies readAll pages,
 * each in its own short transaction with the checkpoint, so xmin is never held back for long
 * (architecture-anchors §2.5). A failure leaves rows and checkpoint consistent: a runner resumes.
 */
export async function rebuildProjection(options: RebuildOptions): Promise<RebuildResult> {
  const { executor, store, projection } = options;
  const batchSize = options.batchSize ?? 1000;
  const started = performance.now();
  const release = await acquireProjectionLock(executor, projection.name);
  if (!release) throw new ProjectionLockedError(projection.name);
  try {
    const { name, version } = projection;
    await executor.transaction(async (tx) => {
      await ensureCheckpointTable(tx);
      await projection.setup(tx);
      await projection.reset(tx);
      await resetCheckpoint(tx, name, version);
    });
    const filter: EventFilter | undefined = projection.eventTypes
      ? { eventTypes: projection.eventTypes }
      : undefined;
    const total = await store.countEvents(filter);
    let done = 0;
    let position: Position | 'start' = 'start';
    options.onProgress?.(done, total);
    for (;;) {
      const page = await store.readAll({ after: position, limit: batchSize, filter });
      if (page.events.length > 0 || comparePositions(page.lastPosition, position) > 0) {
        const from = position;
        await executor.transaction(async (tx) => {
          if (page.events.length > 0) await projection.apply(tx, page.events);
          await advanceCheckpoint(tx, { name, version, from, to: page.lastPosition });
        });
        position = page.lastPosition;
        done += page.events.length;
        options.onProgress?.(done, total);
        options.publisher?.publish({ name, position }).catch(() => undefined);
      }
      if (page.endOfFeed) break;
    }
    const records = projection.countRecords ? await projection.countRecords(executor) : undefined;
    const seconds = (performance.now() - started) / 1000;
    return {
      projection: name,
      version,
      events: done,
      ...(records === undefined ? {} : { records }),
      seconds,
      position,
    };
  } finally {
    await release();
  }
}

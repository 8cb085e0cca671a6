import { isAtOrAfter, type EventStore, type Position, type SqlExecutor } from '@switchyard/event-store';
import { CheckpointConflictError } from '../checkpoint/checkpoint-conflict-error';
import { advanceCheckpoint, ensureCheckpoint, readCheckpoint } from '../checkpoint/checkpoint-store';
import { ensureCheckpointTable } from '../checkpoint/checkpoint-table';
import { enterActiveGeneration } from '../generations/enter-active-generation';
import { ensureGenerationTable } from '../generations/generation-table';
import type { Projection } from '../projection';

/**
 * The live runner's unit of work reduced to the protocol a blue-green switch relies on: each
 * transaction enters the active generation (locking the checkpoint row first), applies a page and
 * moves the checkpoint by compare-and-set; a conflict means a switch happened, so it reloads.
 */
export interface LiveWriter {
  reached(position: Position): Promise<void>;
  stop(): Promise<void>;
  conflicts(): number;
}

export async function startLiveWriter(
  executor: SqlExecutor,
  store: EventStore,
  projection: Projection,
  batchSize = 20,
): Promise<LiveWriter> {
  const { name, version } = projection;
  await executor.transaction(async (tx) => {
    await ensureCheckpointTable(tx);
    await ensureGenerationTable(tx);
    await ensureCheckpoint(tx, name, version);
    await enterActiveGeneration(tx, name);
    await projection.setup(tx);
  });
  let stopped = false;
  let conflicts = 0;
  let position: Position | 'start' = 'start';
  const filter = projection.eventTypes ? { eventTypes: projection.eventTypes } : undefined;
  const loop = (async () => {
    while (!stopped) {
      const from = (await readCheckpoint(executor, name))!.position;
      position = from;
      const page = await store.readAll({ after: from, limit: batchSize, filter });
      if (page.lastPosition !== from) {
        try {
          await executor.transaction(async (tx) => {
            await enterActiveGeneration(tx, name);
            await projection.apply(tx, page.events);
            await advanceCheckpoint(tx, { name, version, from, to: page.lastPosition });
          });
          position = page.lastPosition;
        } catch (error) {
          if (!(error instanceof CheckpointConflictError)) throw error;
          conflicts += 1;
        }
      }
      if (page.endOfFeed) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async reached(target) {
      while (!isAtOrAfter(position, target)) {
        await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, 5))]);
      }
    },
    async stop() {
      stopped = true;
      await loop;
    },
    conflicts: () => conflicts,
  };
}

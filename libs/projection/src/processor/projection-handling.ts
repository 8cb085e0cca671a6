import type { EventStore, Position } from '@switchyard/event-store';
import { LONG_WORK, type SqlExecutor } from '@switchyard/sql';
import { advanceCheckpoint, readCheckpoint, resetCheckpoint } from '../checkpoint/checkpoint-store';
import { ensureCheckpointTable } from '../checkpoint/checkpoint-table';
import { enterActiveGeneration } from '../generations/enter-active-generation';
import { ensureGenerationTable, readActiveGeneration } from '../generations/generation-table';
import type { BatchedCheckpointAdvances } from '../checkpoint/batched-checkpoint-advances';
import type { ProjectionLogger } from '../logger';
import type { Projection } from '../projection';
import { rebuildBlueGreen } from '../rebuild/blue-green-rebuild';
import { applyInLanes, lanesOf } from './apply-in-lanes';
import type { ProcessorHandling } from './processor-handling';

/** Where the runner goes on from, or which stored version a blue-green rebuild replaces. */
type Prepared = { resumeAfter: Position | 'start'; isNew: boolean } | { rebuildFrom: number | null };

/**
 * A projection writes its rows and moves its checkpoint in one transaction (architecture-anchors
 * §2.4), so rows and checkpoint agree after any crash; a whole batch goes in one transaction,
 * which first enters the generation serving now, so that it waits for a blue-green switch under
 * way and writes where readers read. A projection with lanes (Projection.laneOf) writes a batch
 * that spans several in one transaction per lane, then moves the checkpoint.
 */
export function projectionHandling(
  projection: Projection,
  dependencies: {
    executor: SqlExecutor;
    store: EventStore;
    logger: ProjectionLogger;
    advances: BatchedCheckpointAdvances;
  },
): ProcessorHandling {
  const { executor, store, logger, advances } = dependencies;
  const { name, version } = projection;
  return {
    kind: 'projection',
    version,
    batches: true,
    async prepare(signal, rebuilding) {
      const prepared = await executor.transaction(async (tx): Promise<Prepared> => {
        await ensureCheckpointTable(tx);
        await ensureGenerationTable(tx);
        const stored = await readCheckpoint(tx, name);
        if (stored?.version === version) {
          await enterActiveGeneration(tx, name);
          await projection.setup(tx);
          return { resumeAfter: stored.position, isNew: false };
        }
        if (stored || (await readActiveGeneration(tx, name))) return { rebuildFrom: stored?.version ?? null };
        // Brand new: nobody reads it yet, so it is built in place, in the live schema.
        await projection.setup(tx);
        await projection.reset(tx);
        await resetCheckpoint(tx, name, version);
        return { resumeAfter: 'start', isNew: true };
      }, LONG_WORK);
      if ('resumeAfter' in prepared) {
        if (prepared.isNew) logger.info({ projection: name, version }, 'new projection, building it');
        return prepared.resumeAfter;
      }
      rebuilding();
      return rebuildNewVersion(prepared.rebuildFrom, signal);
    },
    async handle(events, from, to) {
      // Past events this projection does not read, only the checkpoint moves: a compare-and-set
      // with no transaction or generation to enter, sent with the other processors' (a processor
      // reads past the appends of other types in bursts, to keep its position at the head for
      // read-your-writes).
      if (events.length === 0) return advances.advance({ name, version, from, to });
      // One PostgreSQL backend per lane; PGlite has one connection, where lanes would only queue.
      const lanes = executor.dialect === 'postgres' ? lanesOf(events, projection) : [events];
      if (lanes.length > 1) {
        await applyInLanes(executor, projection, lanes);
        return advances.advance({ name, version, from, to });
      }
      await executor.transaction(async (tx) => {
        await enterActiveGeneration(tx, name, { asynchronousCommit: true });
        await projection.apply(tx, events);
        await advanceCheckpoint(tx, { name, version, from, to });
      }, LONG_WORK);
    },
  };

  /** The stored version keeps serving while this one is built beside it, until the switch. */
  async function rebuildNewVersion(from: number | null, signal: AbortSignal): Promise<Position | 'start'> {
    logger.info(
      { projection: name, from, to: version },
      'projection version changed: building the new version beside the one serving',
    );
    // A large read model takes a while: say how far it is every tenth of the way.
    let reported = 0;
    const onProgress = (done: number, total: number | null) => {
      if (!total || reported === 10 || done < ((reported + 1) * total) / 10) return;
      reported = Math.min(10, Math.floor((10 * done) / total));
      logger.info({ projection: name, version, done, total }, `rebuilding: ${reported * 10}%`);
    };
    const result = await rebuildBlueGreen({ executor, store, projection, signal, onProgress });
    logger.info(
      { projection: name, version, events: result.events, seconds: Number(result.seconds.toFixed(1)) },
      'projection rebuilt, the new version serves',
    );
    return result.position;
  }
}

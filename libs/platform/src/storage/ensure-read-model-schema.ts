import { SCHEMA_LOCK_KEY } from '@switchyard/event-store/sql';
import { LONG_WORK, type SqlExecutor } from '@switchyard/sql';
import {
  ensureCheckpointTable,
  ensureGenerationTable,
  lockActiveGeneration,
  readCheckpoints,
  type Projection,
} from '@switchyard/projection';

/**
 * Every process creates the read-model tables before it serves or reads anything, so no process
 * depends on another having started first (an api querying auth_credentials before the projector's
 * runner created it). Serialized across processes under the event store's schema lock, since
 * concurrent CREATE ... IF NOT EXISTS can still collide in the catalog.
 *
 * A projection whose checkpoint is at its version already has its tables, and is left alone: its
 * runner may be writing to them, and re-running DDL there would only contend for table locks. Any
 * other gets its tables created; resetting and replaying stays the runner's job (its reset and
 * new tables commit together, so a reader never sees a table missing). For a version change this
 * only means that readers of a table new in that version find it, empty, instead of failing.
 * A projection served by a blue-green generation is left alone too: a switch made its tables
 * complete, views stand in the live schema where setup would try to index them, and the runner
 * builds the new version beside them (read under the checkpoint row lock, so no switch is half-way).
 */
export async function ensureReadModelSchema(
  executor: SqlExecutor,
  projections: readonly Projection[],
): Promise<void> {
  await executor.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    await ensureCheckpointTable(tx);
    await ensureGenerationTable(tx);
    const checkpoints = await readCheckpoints(
      tx,
      projections.map((projection) => projection.name),
    );
    for (const projection of projections) {
      const stored = checkpoints.get(projection.name);
      if (stored?.version === projection.version) continue;
      if (await lockActiveGeneration(tx, projection.name)) continue;
      await projection.setup(tx);
    }
    // Waits for another process's setup under the lock, and may index a big table: long work.
  }, LONG_WORK);
}

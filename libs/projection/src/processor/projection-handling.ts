import type { SqlExecutor } from '@switchyard/event-store';
import { advanceCheckpoint, readCheckpoint, resetCheckpoint } from '../checkpoint/checkpoint-store';
import { ensureCheckpointTable } from '../checkpoint/checkpoint-table';
import type { ProjectionLogger } from '../logger';
import type { Projection } from '../projection';
import type { ProcessorHandling } from './processor-handling';

/**
 * A projection writes its rows and moves its checkpoint in one transaction (architecture-anchors
 * §2.4), so rows and checkpoint agree after any crash; a whole batch goes in one transaction.
 */
export function projectionHandling(
  projection: Projection,
  dependencies: { executor: SqlExecutor; logger: ProjectionLogger },
): ProcessorHandling {
  const { executor, logger } = dependencies;
  const { name, version } = projection;
  return {
    kind: 'projection',
    version,
    batches: true,
    async prepare() {
      const { position, replacedVersion } = await executor.transaction(async (tx) => {
        await ensureCheckpointTable(tx);
        await projection.setup(tx);
        const stored = await readCheckpoint(tx, name);
        if (stored?.version === version) return { position: stored.position, replacedVersion: undefined };
        await projection.reset(tx);
        await resetCheckpoint(tx, name, version);
        return { position: 'start' as const, replacedVersion: stored?.version ?? null };
      });
      if (replacedVersion !== undefined) {
        logger.info(
          { projection: name, from: replacedVersion, to: version },
          replacedVersion === null
            ? 'new projection, building it from the start'
            : 'projection version changed, rebuilding it',
        );
      }
      return position;
    },
    async handle(events, from, to) {
      await executor.transaction(async (tx) => {
        if (events.length > 0) await projection.apply(tx, events);
        await advanceCheckpoint(tx, { name, version, from, to });
      });
    },
  };
}

import { decodeSqlPosition, type EventStore, type Position } from '@switchyard/event-store';
import { type SqlQueryable } from '@switchyard/sql';
import { NotReadyError, type ReadinessContributor, type ReadinessDetails } from '@switchyard/http';
import { readCheckpoints, type ProcessorHost, type ProcessorStatus } from '@switchyard/projection';

/**
 * /readyz shows every processor (projection or reactor) with its position and how far behind the
 * head it is, and fails while one is retrying a failure or has stopped for good, so an orchestrator
 * stops routing to a process whose read models are stale. This is the view of a process that runs
 * the processors itself (all-in-one).
 */
export const projectionReadiness = (host: ProcessorHost, store: EventStore): ReadinessContributor => ({
  name: 'processors',
  async check() {
    const head = await countableHead(store);
    const statuses = host.status();
    const processors = statuses.map((status) => report(status, head));
    const failing = statuses.filter((status) => status.failedOn || status.lastError);
    if (failing.length === 0) return { head, processors };
    throw new NotReadyError(
      failing
        .map((status) =>
          status.failedOn ? `${status.name} has stopped` : `${status.name}: ${status.lastError}`,
        )
        .join('; '),
      { head, processors },
    );
  },
});

/**
 * The same report in a process that only reads the checkpoints (the api beside a projector): the
 * checkpoint table says where each processor stands and whether it has stopped for good.
 */
export const checkpointReadiness = (
  executor: SqlQueryable,
  names: readonly string[],
  store: EventStore,
): ReadinessContributor => ({
  name: 'processors',
  async check() {
    const head = await countableHead(store);
    const checkpoints = await readCheckpoints(executor, names);
    const processors = names.map((name) => {
      const checkpoint = checkpoints.get(name);
      const position = checkpoint?.position ?? null;
      return {
        name,
        position,
        behind: positionsBehind(position, head),
        failure: checkpoint?.failure ?? null,
      };
    });
    const stopped = processors.filter((processor) => processor.failure);
    const details: ReadinessDetails = { head, processors };
    if (stopped.length === 0) return details;
    throw new NotReadyError(stopped.map((processor) => `${processor.name} has stopped`).join('; '), details);
  },
});

/** Only SQL positions number the events; EventStoreDB's are log offsets, so no count there. */
async function countableHead(store: EventStore): Promise<Position | null> {
  return store.name === 'esdb' ? null : store.headPosition();
}

function report(status: ProcessorStatus, head: Position | null) {
  return {
    name: status.name,
    kind: status.kind,
    version: status.version,
    state: status.state,
    position: status.position,
    behind: positionsBehind(status.position, head),
    error: status.lastError,
    failed_on: status.failedOn,
  };
}

/**
 * Global positions between the checkpoint and the head (events appended since, rolled-back
 * appends included); null while the checkpoint or a countable head is unknown.
 */
function positionsBehind(position: Position | 'start' | null, head: Position | null): number | null {
  if (position === null || head === null) return null;
  const at = position === 'start' ? 0n : BigInt(decodeSqlPosition(position).globalPosition);
  return Math.max(0, Number(BigInt(decodeSqlPosition(head).globalPosition) - at));
}

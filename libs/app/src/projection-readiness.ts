import { decodeSqlPosition, type EventStore, type Position } from '@switchyard/event-store';
import { NotReadyError, type ReadinessContributor } from '@switchyard/http';
import type { ProcessorHost, ProcessorStatus } from '@switchyard/projection';

/**
 * /readyz shows every processor (projection or reactor) with its position and how far behind the
 * head it is, and fails while one is retrying a failure or has stopped for good, so an orchestrator
 * stops routing to a process whose read models are stale.
 */
export const projectionReadiness = (host: ProcessorHost, store: EventStore): ReadinessContributor => ({
  name: 'processors',
  async check() {
    const head = await store.headPosition();
    // Only SQL positions number the events; EventStoreDB's are log offsets.
    const countable = store.name !== 'esdb';
    const processors = host.status().map((status) => report(status, countable ? head : null));
    const failing = host.status().filter((status) => status.failedOn || status.lastError);
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

function report(status: ProcessorStatus, countableHead: Position | null) {
  return {
    name: status.name,
    kind: status.kind,
    version: status.version,
    state: status.state,
    position: status.position,
    behind: positionsBehind(status.position, countableHead),
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
  try {
    const at = BigInt(decodeSqlPosition(position).globalPosition);
    return Math.max(0, Number(BigInt(decodeSqlPosition(head).globalPosition) - at));
  } catch {
    return null;
  }
}

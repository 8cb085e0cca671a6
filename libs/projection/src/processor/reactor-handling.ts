import type { CommandService } from '@switchyard/event-store/application';
import type { EventStore } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import type { BatchedCheckpointAdvances } from '../checkpoint/batched-checkpoint-advances';
import { ensureCheckpoint, lowestCheckpoint, readCheckpoint } from '../checkpoint/checkpoint-store';
import { ensureCheckpointTable } from '../checkpoint/checkpoint-table';
import type { ProcessorHandling } from './processor-handling';
import { reactionContext } from './reaction-context';
import type { Reactor } from './reactor';

/**
 * Reactors have no read model to version: replaying one from the start would repeat its side
 * effects, so its checkpoint keeps one version for good.
 */
export const REACTOR_CHECKPOINT_VERSION = 1;

/**
 * A reactor reacts to one event (side effects, then idempotent commands), and only then moves its
 * checkpoint past it: a crash in between makes it react again, and the idempotency keys keep the
 * second run from recording anything twice.
 */
export function reactorHandling(
  reactor: Reactor,
  dependencies: {
    executor: SqlExecutor;
    store: EventStore;
    commands: CommandService;
    advances: BatchedCheckpointAdvances;
  },
): ProcessorHandling {
  const { executor, store, commands, advances } = dependencies;
  const { name } = reactor;
  const version = REACTOR_CHECKPOINT_VERSION;
  return {
    kind: 'reactor',
    version,
    batches: false,
    async prepare() {
      const existing = await readCheckpoint(executor, name).catch(() => null);
      if (existing) return existing.position;
      // Only on the reactor's very first start: the work it succeeds, or the head, or the start.
      const inherited = await lowestCheckpoint(executor, reactor.lineage?.succeeds ?? []).catch(() => null);
      const initial =
        inherited ?? (reactor.startsAtHead ? ((await store.headPosition()) ?? 'start') : 'start');
      const checkpoint = await executor.transaction(async (tx) => {
        await ensureCheckpointTable(tx);
        return ensureCheckpoint(tx, name, version, initial);
      });
      return checkpoint.position;
    },
    async handle(events, from, to, signal, owner) {
      const keyedBy = reactor.lineage?.name ?? name;
      for (const event of events)
        await reactor.react(event, reactionContext(keyedBy, event, commands, { signal, owner }));
      await advances.advance({ name, version, from, to });
    },
  };
}

import type { CodeHost } from '@switchyard/code-host';
import { CommandService } from '@switchyard/event-store/application';
import { systemClock } from '@switchyard/kernel';
import { createMergeQueueEngine, type MergeQueueEngine } from '@switchyard/merge-queue/engine';
import type { Storage } from '@switchyard/platform';
import {
  partitionName,
  partitionReactor,
  type PeriodicProcessor,
  type Reactor,
  type ReadModelFreshness,
} from '@switchyard/projection';
import type { Logger } from 'pino';
import { ENGINE_TIMER, type EngineLayout } from './engine-layout';

/** How often each partition's timer ticks its due queues. */
const TIMER_INTERVAL_MS = 1000;

export interface MergeQueueProcessors {
  engine: MergeQueueEngine;
  /** The engine's reactors, each split into the layout's partitions. */
  reactors: Reactor[];
  /** One queue timer per partition, a periodic processor under the partition's lease. */
  timers: PeriodicProcessor[];
}

/**
 * The merge-queue engine on this process's stores and code host, as processors of the runtime:
 * its reactors and its timer split by repository into the layout's partitions. Each partition's
 * processors share one owner across processes (openRuntime's engine ownership).
 */
export function openMergeQueueEngine(deps: {
  logger: Logger;
  storage: Storage;
  codeHost: CodeHost;
  freshness: ReadModelFreshness;
  layout: EngineLayout;
}): MergeQueueProcessors {
  const { layout } = deps;
  const engine = createMergeQueueEngine({
    store: deps.storage.store,
    commands: new CommandService(deps.storage.store),
    sql: deps.storage.executor,
    freshness: deps.freshness,
    codeHost: deps.codeHost,
    clock: systemClock,
    logger: deps.logger,
  });
  const reactors = engine.reactors.flatMap((reactor) =>
    partitionReactor(reactor, layout.partitions, layout.keyOf),
  );
  const timers = Array.from({ length: layout.partitions }, (_, index): PeriodicProcessor => ({
    name: partitionName(ENGINE_TIMER, index, layout.partitions),
    intervalMs: TIMER_INTERVAL_MS,
    async tick({ assertOwnership }) {
      const owns = (repository: string) => layout.partitionOfRepository(repository) === index;
      await engine.timer({ owns, fence: assertOwnership }).tickAll();
    },
  }));
  return { engine, reactors, timers };
}

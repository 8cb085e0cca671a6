import type { CodeHost } from '@switchyard/code-host';
import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import type { EventStore } from '@switchyard/event-store';
import type { CommandService } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import type { Reactor, ReadModelFreshness } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { FreezeWatch } from './freeze-watch';
import { QueueDesk } from './queue-desk';
import { createQueueEffectsReactor } from './queue-effects.reactor';
import { createQueueIntakeReactor } from './queue-intake.reactor';
import { QueueTimer } from './queue-timer';
import { RepositoryConfigurations } from './repository-configuration';

export interface MergeQueueEngine {
  /** Facts → queue commands, and queue decisions → code-host effects. */
  reactors: Reactor[];
  /** Ticks queues whose timers are due; start it where the reactors run. */
  timer: QueueTimer;
}

interface Logger {
  warn(object: object, message: string): void;
}

/** The merge-queue engine's parts, wired to one code host, store and read models. */
export function createMergeQueueEngine(deps: {
  store: EventStore;
  commands: CommandService;
  sql: SqlQueryable;
  freshness: ReadModelFreshness;
  codeHost: CodeHost;
  clock: Clock;
  logger: Logger;
  timerIntervalMs?: number;
}): MergeQueueEngine {
  const { store, commands, sql, freshness, codeHost, clock, logger } = deps;
  const desk = new QueueDesk(store, commands, new RepositoryConfigurations(codeHost));
  const snapshots = new PullRequestSnapshots(sql);
  const freezes = new FreezeWatch(desk, sql, snapshots, clock);
  return {
    reactors: [
      createQueueIntakeReactor({ desk, snapshots, freezes, sql, freshness, clock, logger }),
      createQueueEffectsReactor({ desk, codeHost, clock }),
    ],
    timer: new QueueTimer({ desk, freezes, sql, clock, logger, intervalMs: deps.timerIntervalMs ?? 1000 }),
  };
}

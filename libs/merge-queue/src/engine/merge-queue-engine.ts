import type { Logger } from '@switchyard/kernel';
import type { CodeHost, CodeHostUsage } from '@switchyard/code-host';
import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import type { EventStore } from '@switchyard/event-store';
import type { CommandService } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import { fencedIssuer, type Reactor, type ReadModelFreshness } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { beforeEachOperation } from './fenced-code-host';
import { FreezeWatch } from './freeze-watch';
import { MergeGate } from './merge-gate';
import { QueueDesk } from './queue-desk';
import { createQueueEffectsReactor } from './queue-effects.reactor';
import { createQueueIntakeReactor } from './queue-intake.reactor';
import { QueueTimer } from './queue-timer';
import { createStatusCommentsReactor } from './status-comments.reactor';
import { RepositoryConfigurations } from './repository-configuration';

export interface MergeQueueEngine {
  /** Facts → queue commands, and queue decisions → code-host effects. */
  reactors: Reactor[];
  /**
   * A timer that ticks the due queues of the repositories it owns, issuing every command only
   * after `fence` (which throws once its runner lost the ownership) lets it: the runtime runs one per
   * partition as a periodic processor.
   */
  timer(options: { owns?: (repository: string) => boolean; fence: () => void }): QueueTimer;
  /** What the engine asked of the code host: REST calls and writes, and when each operation began. */
  telemetry: EngineTelemetry;
}

/** Kept for operators and bench:engine: the engine's code-host budget and reaction latency. */
export class EngineTelemetry {
  static readonly KEPT_CALLS = 10_000;
  /** The most recent code-host operations (epoch ms when each began), oldest first. */
  readonly calls: { operation: string; at: number }[] = [];

  /**
   * The engine has a code host of its own, so its totals are the engine's whole budget: every
   * reactor and the timer, retries included.
   */
  constructor(private readonly codeHost: Pick<CodeHost, 'usage'>) {}

  get usage(): CodeHostUsage {
    return this.codeHost.usage();
  }

  record(operation: string, at: number): void {
    this.calls.push({ operation, at });
    if (this.calls.length > EngineTelemetry.KEPT_CALLS) this.calls.shift();
  }
}

/** The code host as the engine sees it: the start of every operation recorded. */
function observed(codeHost: CodeHost, telemetry: EngineTelemetry, clock: Clock): CodeHost {
  return beforeEachOperation(codeHost, (operation) => telemetry.record(operation, clock.now().getTime()));
}

/** The merge-queue engine's parts, wired to one code host, store and read models. */
export function createMergeQueueEngine(deps: {
  store: EventStore;
  commands: CommandService;
  sql: SqlQueryable;
  freshness: ReadModelFreshness;
  codeHost: CodeHost;
  clock: Clock;
  logger: Pick<Logger, 'warn' | 'info'>;
}): MergeQueueEngine {
  const { store, commands, sql, freshness, clock, logger } = deps;
  const telemetry = new EngineTelemetry(deps.codeHost);
  const codeHost = observed(deps.codeHost, telemetry, clock);
  const desk = new QueueDesk(store, new RepositoryConfigurations(codeHost, clock));
  const snapshots = new PullRequestSnapshots(sql);
  const freezes = new FreezeWatch(desk, sql, snapshots, clock);
  return {
    reactors: [
      createQueueIntakeReactor({ desk, codeHost, snapshots, freezes, sql, freshness, clock, logger }),
      createQueueEffectsReactor({ desk, codeHost, gate: new MergeGate(store, freezes, clock), clock }),
      createStatusCommentsReactor({ desk, codeHost }),
    ],
    telemetry,
    timer({ owns, fence }) {
      return new QueueTimer({
        desk,
        // Every command of the timer fenced by the timer's ownership.
        issuer: fencedIssuer(commands, fence),
        freezes,
        sql,
        clock,
        logger,
        ...(owns ? { owns } : {}),
      });
    },
  };
}

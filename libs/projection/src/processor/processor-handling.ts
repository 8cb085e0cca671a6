import type { CommandService } from '@switchyard/event-store/application';
import type { EventStore, Position, RecordedEvent } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import { checkpointAdvancesOn } from '../checkpoint/batched-checkpoint-advances';
import type { ProjectionLogger } from '../logger';
import { isReactor, type Processor } from './processor';
import { projectionHandling } from './projection-handling';
import { reactorHandling } from './reactor-handling';

/** What differs between kinds of processor; the runner does the rest (lock, feed, retries, stop). */
export interface ProcessorHandling {
  readonly kind: 'projection' | 'reactor';
  readonly version: number;
  /**
   * Whether several events may be handled as one unit. A reactor handles one event per unit, so a
   * retry never repeats the side effects of the events before the failing one.
   */
  readonly batches: boolean;
  /**
   * Brings the stored state to this processor's version and returns the position to resume after:
   * for a projection whose stored version differs, a blue-green rebuild, announced by calling
   * rebuilding() first (the signal stops it).
   */
  prepare(signal: AbortSignal, rebuilding: () => void): Promise<Position | 'start'>;
  /**
   * Handles the events in order and moves the checkpoint from `from` to `to`. `owner` says whether
   * this process still owns the processor's work: a reactor checks it before each side effect.
   */
  handle(
    events: readonly RecordedEvent[],
    from: Position | 'start',
    to: Position | 'start',
    signal: AbortSignal,
    owner: () => boolean,
  ): Promise<void>;
}

export interface ProcessorDependencies {
  /** The read-model database, where checkpoints live. */
  executor: SqlExecutor;
  store: EventStore;
  logger: ProjectionLogger;
  /** Reactors issue their commands through it; required to run one. */
  commands?: CommandService;
}

/** The one place that knows which handling each kind of processor gets. */
export function handlingFor(processor: Processor, dependencies: ProcessorDependencies): ProcessorHandling {
  const advances = checkpointAdvancesOn(dependencies.executor);
  if (!isReactor(processor)) return projectionHandling(processor, { ...dependencies, advances });
  if (!dependencies.commands) {
    throw new Error(`Reactor ${processor.name} needs a CommandService to issue its commands`);
  }
  return reactorHandling(processor, {
    executor: dependencies.executor,
    store: dependencies.store,
    commands: dependencies.commands,
    advances,
  });
}

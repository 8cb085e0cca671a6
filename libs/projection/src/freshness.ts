import type { Position } from '@switchyard/event-store';

/**
 * Read-your-writes, per read model. Each query declares the read models (processor names) it
 * serves from; a write names those of the reads that must see it, checks that they run before it
 * appends, and waits for them after (see readYourWrite). A lagging or rebuilding read model so
 * delays only its own readers. Bounded: waitFor resolves false when the wait times out (the events
 * are durable either way; only the read model lags).
 */
export interface ReadModelFreshness {
  /** Rejects with ReadModelStoppedError when one of them has stopped for good on an event. */
  assertRunning(readModels: readonly string[]): Promise<void>;
  /** True once every named read model includes the position; false on timeout or once one stops. */
  waitFor(readModels: readonly string[], position: Position | null, timeoutMs?: number): Promise<boolean>;
  /**
   * The position every named read model has committed, as this process knows it without I/O;
   * null when it cannot tell. A lower bound: the read models may be further on already.
   */
  includedPosition?(readModels: readonly string[]): Position | 'start' | null;
  /**
   * Calls the listener each time the read model commits a checkpoint (as this process learns of
   * it: its own runner, or the checkpoint signal). Returns the function that stops the calls. For
   * readers that push changes out (the dashboard's server-sent events) instead of polling.
   */
  onAdvance?(readModel: string, listener: CheckpointListener): () => void;
}

/** Told the position a read model has just committed. */
export type CheckpointListener = (position: Position | 'start') => void;

/** Seconds a refused caller is told to wait: an operator has to act, so polling faster helps no one. */
export const READ_MODEL_STOPPED_RETRY_AFTER_SECONDS = 60;

/**
 * A write was refused before appending anything, because a read model it must show in has stopped
 * for good: accepting it would acknowledge a change nobody could see. HTTP answers 503 with
 * Retry-After.
 */
export class ReadModelStoppedError extends Error {
  readonly retryAfterSeconds = READ_MODEL_STOPPED_RETRY_AFTER_SECONDS;

  constructor(readonly readModels: readonly string[]) {
    super(
      `The read model ${readModels.join(', ')} has stopped on an event it cannot process, so this change ` +
        'is refused and nothing was written; retry once an operator has fixed it',
    );
    this.name = 'ReadModelStoppedError';
  }
}

/**
 * A reactor's read models have not yet reached the event it reacts to. Deciding now would judge
 * the event against a view that does not hold it yet (a label seen before the snapshot shows it):
 * the reaction is tried again, and as a lag, not a fault of the event, it never counts towards
 * parking the event or stopping the processor (an OutageSignal).
 */
export class ReadModelsBehindError extends Error {
  readonly outage = true as const;

  constructor(readModels: readonly string[], position: Position) {
    super(`The read models ${readModels.join(', ')} have not reached position ${position} yet`);
    this.name = 'ReadModelsBehindError';
  }
}

/** Waits until the reactor's read models include the event, or throws ReadModelsBehindError. */
export async function untilReadModelsInclude(
  freshness: ReadModelFreshness,
  readModels: readonly string[],
  position: Position,
  timeoutMs: number,
): Promise<void> {
  if (!(await freshness.waitFor(readModels, position, timeoutMs)))
    throw new ReadModelsBehindError(readModels, position);
}

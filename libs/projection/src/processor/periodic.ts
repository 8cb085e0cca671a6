/**
 * A processor that acts on a period instead of on events (the merge queue's timer): it holds the
 * same kind of ownership as the reactors (one owner across processes, a lease that can be lost),
 * and every action it takes is fenced by it.
 */
export interface PeriodicProcessor {
  /** Stable name: the lock or lease, the heartbeat row and /readyz. */
  readonly name: string;
  readonly intervalMs: number;
  /** One round of work. Call context.assertOwnership() right before each side effect or command. */
  tick(context: PeriodicContext): Promise<void>;
}

export interface PeriodicContext {
  /** Aborted when the processor stops or loses its ownership. */
  readonly signal: AbortSignal;
  /** Throws OwnershipLostError once this process no longer owns the processor. */
  assertOwnership(): void;
}

export const isPeriodic = (processor: object): processor is PeriodicProcessor => 'tick' in processor;

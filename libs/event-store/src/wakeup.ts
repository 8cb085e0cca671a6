import type { Position } from './types';

/**
 * What an append says when it wakes the readers: the types it stored, and where its last event is.
 * Without types, only that the settled feed reaches `position` (an idle beat that read the head).
 */
export interface AppendHint {
  types?: readonly string[];
  position: Position;
}

/**
 * A wake-up that cannot be slept through. A waiter takes a token (current()) before it reads and
 * hands it to wait() afterwards: if anything was appended in between, wait() returns at once.
 * Each waiter holds its own token, so one subscriber waking never swallows another's notification
 * (a single shared "pending" flag would, leaving the other asleep until its fallback poll).
 */
export class Wakeup {
  private generation = 0;
  private waiters = new Set<() => void>();
  private readonly listeners = new Set<(hint: AppendHint | undefined) => void>();

  /** Whether any subscriber listens (listen()); a store with none has nobody to poll for. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /** The token to pass to wait(); take it before reading. */
  current(): number {
    return this.generation;
  }

  /** Without a hint, nothing is known about what was appended: every listener must look. */
  notify(hint?: AppendHint): void {
    this.generation += 1;
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const wake of waiters) wake();
    for (const listener of this.listeners) listener(hint);
  }

  /**
   * Hears every notify() with its hint, for a subscriber that decides for itself which appends
   * are worth a read (pollingSubscription). Returns the function that stops listening.
   */
  listen(listener: (hint: AppendHint | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves on the first notify() after `since`, on abort, or after timeoutMs, whichever comes
   * first; a null timeout waits for a notify or the abort only.
   */
  async wait(since: number, signal: AbortSignal, timeoutMs: number | null): Promise<void> {
    if (since !== this.generation || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        if (timer) clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = timeoutMs === null ? null : setTimeout(done, timeoutMs);
      signal.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }
}

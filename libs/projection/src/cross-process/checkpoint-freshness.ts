import { isAtOrAfter, type Position, type SqlQueryable } from '@switchyard/event-store';
import { readCheckpoints } from '../checkpoint/checkpoint-store';
import type { ReadModelFreshness } from '../freshness';
import { ConditionWaiters } from '../waiting/condition-waiters';
import type { CheckpointSignal } from './checkpoint-signal';

export interface CheckpointFreshnessOptions {
  /** The read-model database, where sy_projection_checkpoints lives. */
  executor: SqlQueryable;
  /** The projections this process reads from; every one must include the position. */
  projections: readonly string[];
  signal: Pick<CheckpointSignal, 'subscribe'>;
  defaultTimeoutMs?: number;
}

/**
 * Read-your-writes in a process that does not run the projections (the api of a multi-service
 * deployment): reads the checkpoints from the table, and re-reads them whenever the signal says a
 * projection moved. The table is the truth; the signal only says when to look again, and a waiter
 * looks once more before giving up in case a wake-up was lost.
 */
export class CheckpointFreshness implements ReadModelFreshness {
  private readonly names: ReadonlySet<string>;
  private readonly waiters = new ConditionWaiters();
  private known = new Map<string, Position | 'start'>();
  /** Reads started so far, and which of them produced `known`. */
  private readsStarted = 0;
  private knownFromRead = 0;
  private unsubscribe: (() => Promise<void>) | null = null;
  private reading: Promise<void> | null = null;
  private nextRead: Promise<void> | null = null;

  constructor(private readonly options: CheckpointFreshnessOptions) {
    this.names = new Set(options.projections);
  }

  async start(): Promise<void> {
    if (this.unsubscribe) return;
    this.unsubscribe = await this.options.signal.subscribe((update) => {
      if (this.names.has(update.name) && this.waiters.pending > 0) void this.refresh();
    });
  }

  async close(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    if (unsubscribe) await unsubscribe();
  }

  async waitFor(
    position: Position | null,
    timeoutMs = this.options.defaultTimeoutMs ?? 5000,
  ): Promise<boolean> {
    if (position === null) return true;
    // Only a read that started after this call counts: an older view may predate the caller's
    // write, or a reset of a projection to 'start'.
    const since = this.readsStarted;
    const includes = () =>
      this.knownFromRead > since &&
      [...this.names].every((name) => {
        const at = this.known.get(name);
        return at !== undefined && isAtOrAfter(at, position);
      });
    // Registered before reading, so a signal arriving meanwhile already finds a waiter to re-read for.
    const waiting = this.waiters.wait(includes, timeoutMs, async () => {
      await this.refresh();
      return includes();
    });
    void this.refresh();
    return waiting;
  }

  /**
   * Resolves once a read that started after this call has completed. Reads never overlap: calls
   * made during a read share the single read queued behind it.
   */
  private refresh(): Promise<void> {
    if (!this.reading) {
      this.reading = this.readOnce().finally(() => {
        this.reading = null;
      });
      return this.reading;
    }
    if (!this.nextRead) {
      this.nextRead = this.reading.then(() => {
        this.nextRead = null;
        return this.refresh();
      });
    }
    return this.nextRead;
  }

  private async readOnce(): Promise<void> {
    const read = ++this.readsStarted;
    try {
      const checkpoints = await readCheckpoints(this.options.executor, [...this.names]);
      this.known = new Map([...checkpoints].map(([name, checkpoint]) => [name, checkpoint.position]));
    } catch {
      // Table not created yet (no projector has run) or the database is unreachable: the read
      // models are not known to be fresh, so waiters keep waiting and time out with false.
      this.known = new Map();
    }
    this.knownFromRead = read;
    this.waiters.recheck();
  }
}

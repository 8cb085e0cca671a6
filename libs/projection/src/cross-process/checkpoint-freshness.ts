import { isAtOrAfter, type Position } from '@switchyard/event-store';
import { type SqlQueryable } from '@switchyard/sql';
import { readCheckpoints, type Checkpoint } from '../checkpoint/checkpoint-store';
import { ReadModelStoppedError, type CheckpointListener, type ReadModelFreshness } from '../freshness';
import { ConditionWaiters } from '../waiting/condition-waiters';
import type { CheckpointSignal } from './checkpoint-signal';

export interface CheckpointFreshnessOptions {
  /** The read-model database, where sy_projection_checkpoints lives. */
  executor: SqlQueryable;
  /** The processors this process reads from; a wait names those it needs. */
  projections: readonly string[];
  signal: Pick<CheckpointSignal, 'subscribe'>;
  defaultTimeoutMs?: number;
  /** How often the table is re-read while someone waits, whatever the signal says. Default 250 ms. */
  pollIntervalMs?: number;
}

/**
 * Read-your-writes in a process that does not run the projections (the api of a multi-service
 * deployment, the CLI beside a running service): reads the checkpoints from the table, and
 * re-reads them whenever the signal says a projection moved. The table is the truth; the signal
 * only says when to look again. Wake-ups can be lost, or never sent by a process that runs the
 * projections without announcing them, so while anyone waits the table is also re-read on a short
 * interval: a missing signal costs a fraction of a second, never the whole timeout.
 */
export class CheckpointFreshness implements ReadModelFreshness {
  private readonly names: ReadonlySet<string>;
  private readonly waiters = new ConditionWaiters();
  private known = new Map<string, Checkpoint>();
  /** Reads started so far, and which of them produced `known`. */
  private readsStarted = 0;
  private knownFromRead = 0;
  private unsubscribe: (() => Promise<void>) | null = null;
  private reading: Promise<void> | null = null;
  private nextRead: Promise<void> | null = null;
  private poll: NodeJS.Timeout | null = null;

  constructor(private readonly options: CheckpointFreshnessOptions) {
    this.names = new Set(options.projections);
  }

  async start(): Promise<void> {
    if (this.unsubscribe) return;
    this.unsubscribe = await this.options.signal.subscribe((update) => {
      if (this.names.has(update.name) && this.waiters.pending > 0) void this.refresh();
      for (const listener of this.advanceListeners.get(update.name) ?? []) {
        try {
          listener(update.position);
        } catch {
          // A listener's failure is its own: the others still hear of the checkpoint.
        }
      }
    });
  }

  private readonly advanceListeners = new Map<string, Set<CheckpointListener>>();

  /** Calls the listener on each checkpoint the signal announces for the read model. */
  onAdvance(readModel: string, listener: CheckpointListener): () => void {
    this.checkNames([readModel]);
    let listeners = this.advanceListeners.get(readModel);
    if (!listeners) this.advanceListeners.set(readModel, (listeners = new Set()));
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.stopPolling();
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    if (unsubscribe) await unsubscribe();
  }

  /** Reads the table afresh: a write must not be accepted on the word of an old view. */
  async assertRunning(readModels: readonly string[]): Promise<void> {
    this.checkNames(readModels);
    const checkpoints = await readCheckpoints(this.options.executor, readModels);
    const stopped = readModels.filter((name) => checkpoints.get(name)?.failure);
    if (stopped.length > 0) throw new ReadModelStoppedError(stopped);
  }

  async waitFor(
    readModels: readonly string[],
    position: Position | null,
    timeoutMs = this.options.defaultTimeoutMs ?? 5000,
  ): Promise<boolean> {
    if (position === null) return true;
    this.checkNames(readModels);
    // Only a read that started after this call counts: an older view may predate the caller's
    // write, or a reset of a projection to 'start'.
    const since = this.readsStarted;
    const fresh = () => this.knownFromRead > since;
    const includes = () =>
      fresh() &&
      readModels.every((name) => {
        const checkpoint = this.known.get(name);
        return checkpoint !== undefined && isAtOrAfter(checkpoint.position, position);
      });
    // A processor that stopped for good will not get there: no use waiting out the timeout.
    const hopeless = () => fresh() && readModels.some((name) => this.known.get(name)?.failure);
    // Registered before reading, so a signal arriving meanwhile already finds a waiter to re-read for.
    const waiting = this.waiters.wait(
      () => includes() || hopeless(),
      timeoutMs,
      async () => {
        await this.refresh();
        return includes();
      },
    );
    void this.refresh();
    this.startPolling();
    return (await waiting) && includes();
  }

  private checkNames(readModels: readonly string[]): void {
    const unknown = readModels.filter((name) => !this.names.has(name));
    if (unknown.length > 0) throw new Error(`Not a processor this process reads from: ${unknown.join(', ')}`);
  }

  private startPolling(): void {
    if (this.poll) return;
    this.poll = setInterval(() => {
      if (this.waiters.pending === 0) this.stopPolling();
      else void this.refresh();
    }, this.options.pollIntervalMs ?? 250);
    // A pending wait must not keep a shutting-down process alive.
    this.poll.unref();
  }

  private stopPolling(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
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
      this.known = checkpoints;
    } catch {
      // Table not created yet (no projector has run) or the database is unreachable: the read
      // models are not known to be fresh, so waiters keep waiting and time out with false.
      this.known = new Map();
    }
    this.knownFromRead = read;
    this.waiters.recheck();
  }
}

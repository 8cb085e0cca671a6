import {
  abortableSleep,
  backoffMs,
  comparePositions,
  isAtOrAfter,
  type EventFilter,
  type EventStore,
  type Position,
  type RecordedEvent,
  type SqlExecutor,
} from '@switchyard/event-store';
import { CheckpointConflictError } from '../checkpoint/checkpoint-conflict-error';
import { advanceCheckpoint, readCheckpoint, resetCheckpoint } from '../checkpoint/checkpoint-store';
import { ensureCheckpointTable } from '../checkpoint/checkpoint-table';
import type { CheckpointPublisher } from '../cross-process/checkpoint-signal';
import type { ReadModelFreshness } from '../freshness';
import { acquireProjectionLock } from '../lock/projection-lock';
import { errorMessage, type ProjectionLogger } from '../logger';
import type { Projection } from '../projection';
import { ConditionWaiters } from '../waiting/condition-waiters';
import type { ProjectionStatus, RunnerState } from './projection-status';

export interface ProjectionRunnerOptions {
  /** The read-model database. */
  executor: SqlExecutor;
  store: EventStore;
  logger: ProjectionLogger;
  /** Events per transaction while catching up. Default 500. */
  batchSize?: number;
  /** Announces each committed checkpoint to other processes (CheckpointFreshness). */
  publisher?: CheckpointPublisher;
  /** Ceiling of the exponential backoff between retries of failed work. Default 30 s. */
  maxRetryDelayMs?: number;
  /** How often to try again for the lock while another process holds it. Default 5 s. */
  lockRetryMs?: number;
  /** waitFor's timeout when the caller gives none. Default 5 s. */
  defaultWaitTimeoutMs?: number;
}

/** Why a unit of work stopped being retried: the runner is stopping. */
const ABORTED = Symbol('aborted');

/**
 * Runs one projection: holds its lock, brings its tables to the projection's version, then applies
 * the event feed in batches, each batch one transaction with the rows and the compare-and-set
 * checkpoint (architecture-anchors §2.4). Failures are logged and retried with backoff on the same
 * batch: an event is never skipped.
 */
export class ProjectionRunner implements ReadModelFreshness {
  private readonly waiters = new ConditionWaiters();
  private checkpoint: Position | 'start' | null = null;
  private state: RunnerState = 'stopped';
  private caughtUp = false;
  private lastError: string | null = null;
  private failures = 0;
  private publishFailing = false;
  private running: { controller: AbortController; done: Promise<void> } | null = null;

  constructor(
    readonly projection: Projection,
    private readonly options: ProjectionRunnerOptions,
  ) {}

  get name(): string {
    return this.projection.name;
  }

  /** The committed checkpoint; null until the runner has read it. */
  position(): Position | 'start' | null {
    return this.checkpoint;
  }

  /** Starts in the background: waiting for the lock must not hold up the caller. */
  start(): void {
    if (this.running) return;
    const controller = new AbortController();
    this.caughtUp = false;
    const done = this.run(controller.signal)
      .catch((error: unknown) => {
        // Only a failing lock release or logger gets here; everything else is retried inside.
        this.lastError = `runner: ${errorMessage(error)}`;
        this.options.logger.error(
          { projection: this.name, error: errorMessage(error) },
          'projection runner stopped',
        );
      })
      .finally(() => {
        this.state = 'stopped';
      });
    this.running = { controller, done };
  }

  /** Lets the batch in flight finish (or roll back), then releases the lock. */
  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    running.controller.abort();
    await running.done;
    if (this.running === running) this.running = null;
  }

  /** True once the committed checkpoint is at or after the position; false after timeoutMs. */
  waitFor(
    position: Position | null,
    timeoutMs = this.options.defaultWaitTimeoutMs ?? 5000,
  ): Promise<boolean> {
    if (position === null) return Promise.resolve(true);
    return this.waiters.wait(
      () => this.checkpoint !== null && isAtOrAfter(this.checkpoint, position),
      timeoutMs,
    );
  }

  status(): ProjectionStatus {
    return {
      name: this.projection.name,
      version: this.projection.version,
      state: this.failures > 0 && this.state !== 'stopped' ? 'failing' : this.state,
      position: this.checkpoint,
      lagging: !this.caughtUp || this.failures > 0,
      lastError: this.lastError,
      failures: this.failures,
    };
  }

  private async run(signal: AbortSignal): Promise<void> {
    const release = await this.acquireLock(signal);
    if (!release) return;
    try {
      while (!signal.aborted) {
        if ((await this.retrying(signal, 'prepare', () => this.prepare())) === ABORTED) return;
        try {
          await this.follow(signal);
          if (!signal.aborted) throw new Error('the event subscription ended');
        } catch (error) {
          if (signal.aborted) return;
          if (error instanceof CheckpointConflictError) {
            // Someone else moved it: the batch was rolled back; reload and go on from there.
            this.options.logger.warn(
              { projection: this.name, error: error.message },
              'checkpoint moved, reloading',
            );
            continue;
          }
          this.recordFailure('subscription', error);
          await abortableSleep(this.retryDelay(), signal);
        }
      }
    } finally {
      await release();
    }
  }

  private async acquireLock(signal: AbortSignal): Promise<(() => Promise<void>) | null> {
    let reported = false;
    while (!signal.aborted) {
      this.state = 'waiting-for-lock';
      try {
        const release = await acquireProjectionLock(this.options.executor, this.name);
        if (release && signal.aborted) await release();
        else if (release) return release;
        else if (!reported) {
          reported = true;
          this.options.logger.info(
            { projection: this.name },
            'projection runs in another process, waiting for its lock',
          );
        }
      } catch (error) {
        this.recordFailure('lock', error);
      }
      await abortableSleep(this.options.lockRetryMs ?? 5000, signal);
    }
    return null;
  }

  /** Creates the tables, and drops and replays them when the stored version is not ours. */
  private async prepare(): Promise<void> {
    this.state = 'starting';
    const { name, version } = this.projection;
    const { position, replacedVersion } = await this.options.executor.transaction(async (tx) => {
      await ensureCheckpointTable(tx);
      await this.projection.setup(tx);
      const stored = await readCheckpoint(tx, name);
      if (stored?.version === version) return { position: stored.position, replacedVersion: undefined };
      await this.projection.reset(tx);
      await resetCheckpoint(tx, name, version);
      return { position: 'start' as const, replacedVersion: stored?.version ?? null };
    });
    if (replacedVersion !== undefined) {
      this.options.logger.info(
        { projection: name, from: replacedVersion, to: version },
        replacedVersion === null
          ? 'new projection, building it from the start'
          : 'projection version changed, rebuilding it',
      );
    }
    this.moveTo(position);
  }

  private async follow(signal: AbortSignal): Promise<void> {
    const batchSize = this.options.batchSize ?? 500;
    const filter: EventFilter | undefined = this.projection.eventTypes
      ? { eventTypes: this.projection.eventTypes }
      : undefined;
    this.state = this.caughtUp ? 'live' : 'catching-up';
    let pending: RecordedEvent[] = [];
    for await (const item of this.options.store.subscribeToAll({
      after: this.checkpoint!,
      filter,
      signal,
      batchSize,
    })) {
      if (item.kind === 'event') {
        pending.push(item.event);
        if (pending.length < batchSize) continue;
        if ((await this.commit(pending, item.event.position, signal)) === ABORTED) return;
      } else {
        // Caught up: flush what we hold, and move the checkpoint even when the filter left nothing
        // to apply, so read-your-writes works for events this projection ignores.
        if ((await this.commit(pending, item.position, signal)) === ABORTED) return;
        this.caughtUp = true;
        this.state = 'live';
        this.recovered();
      }
      pending = [];
    }
  }

  private async commit(
    events: RecordedEvent[],
    to: Position | 'start',
    signal: AbortSignal,
  ): Promise<void | typeof ABORTED> {
    const from = this.checkpoint!;
    if (events.length === 0 && comparePositions(to, from) <= 0) return;
    const { name, version } = this.projection;
    const outcome = await this.retrying(signal, 'apply', () =>
      this.options.executor.transaction(async (tx) => {
        if (events.length > 0) await this.projection.apply(tx, events);
        await advanceCheckpoint(tx, { name, version, from, to });
      }),
    );
    if (outcome === ABORTED) return ABORTED;
    this.recovered();
    this.moveTo(to);
    this.publish(to);
  }

  /**
   * Runs work until it succeeds, logging and backing off between attempts; a conflict is not retried
   * here. Failures count until the projection makes progress again (recovered()), so the backoff
   * keeps growing across a failing setup and a failing subscription alike.
   */
  private async retrying<T>(
    signal: AbortSignal,
    what: string,
    work: () => Promise<T>,
  ): Promise<T | typeof ABORTED> {
    while (!signal.aborted) {
      try {
        return await work();
      } catch (error) {
        if (error instanceof CheckpointConflictError) throw error;
        if (signal.aborted) break;
        this.recordFailure(what, error);
        await abortableSleep(this.retryDelay(), signal);
      }
    }
    return ABORTED;
  }

  private moveTo(position: Position | 'start'): void {
    this.checkpoint = position;
    this.waiters.recheck();
  }

  private publish(position: Position | 'start'): void {
    const publisher = this.options.publisher;
    if (!publisher) return;
    publisher.publish({ name: this.name, position }).then(
      () => {
        this.publishFailing = false;
      },
      (error: unknown) => {
        // Readers elsewhere only wait longer; say so once per outage, not once per batch.
        if (this.publishFailing) return;
        this.publishFailing = true;
        this.options.logger.warn(
          { projection: this.name, error: errorMessage(error) },
          'checkpoint signal failed',
        );
      },
    );
  }

  private recordFailure(what: string, error: unknown): void {
    this.failures += 1;
    this.lastError = `${what}: ${errorMessage(error)}`;
    this.options.logger.error(
      {
        projection: this.name,
        what,
        failures: this.failures,
        position: this.checkpoint,
        error: errorMessage(error),
      },
      `projection ${what} failed, retrying`,
    );
  }

  private recovered(): void {
    this.failures = 0;
    this.lastError = null;
  }

  private retryDelay(): number {
    return backoffMs(this.failures, this.options.maxRetryDelayMs ?? 30_000);
  }
}

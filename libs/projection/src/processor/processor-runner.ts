import {
  abortableSleep,
  backoffMs,
  comparePositions,
  isAtOrAfter,
  type EventFilter,
  type Position,
  type RecordedEvent,
  Wakeup,
} from '@switchyard/event-store';
import { isOutage } from '@switchyard/kernel';
import { CheckpointConflictError } from '../checkpoint/checkpoint-conflict-error';
import { readCheckpoint, recordCheckpointFailure } from '../checkpoint/checkpoint-store';
import type { CheckpointPublisher } from '../cross-process/checkpoint-signal';
import {
  advisoryLockOwnership,
  ownershipIsNews,
  type Ownership,
  type OwnershipSource,
} from '../lock/ownership';
import { errorMessage } from '../logger';
import { parkEvent, recordReplay, requestedReplays, type ParkedEvent } from '../parking/parked-events';
import type { CheckpointListener } from '../freshness';
import { ConditionWaiters } from '../waiting/condition-waiters';
import type { Processor } from './processor';
import { handlingFor, type ProcessorDependencies, type ProcessorHandling } from './processor-handling';
import {
  describeFailedEvent,
  type FailedEvent,
  type ProcessorStatus,
  type RunnerState,
} from './processor-status';

export interface ProcessorRunnerOptions extends ProcessorDependencies {
  /** Events per unit of work while catching up. Default 500. */
  batchSize?: number;
  /** Announces each committed checkpoint to other processes (CheckpointFreshness). */
  publisher?: CheckpointPublisher;
  /** Ceiling of the exponential backoff between retries of failed work. Default 30 s. */
  maxRetryDelayMs?: number;
  /** How often to try again for the lock while another process holds it. Default 5 s. */
  lockRetryMs?: number;
  /**
   * Where the runner's ownership comes from (one active runner across processes). Default: a
   * PostgreSQL advisory lock per processor. A lease that is lost stops the work in flight at once
   * and the runner waits for ownership again.
   */
  ownership?: OwnershipSource;
  /** waitFor's timeout when the caller gives none. Default 5 s. */
  defaultWaitTimeoutMs?: number;
  /**
   * Attempts at one event before the processor stops for good. Default 6 (about 3 s of backoff).
   * Only attempts made
   * while the database answers count: an outage is waited out, not blamed on the event.
   */
  maxAttemptsPerEvent?: number;
  /**
   * Which events come from outside (facts a code host reported): one that still cannot be applied
   * after its attempts is parked (recorded in sy_parked_events, logged) and the processor goes on
   * with the next event. Any other event stops the processor, since a failure on Switchyard's own
   * events is a bug to fix. Default: none is parked.
   */
  parks?: (event: RecordedEvent) => boolean;
}

/** Why a unit of work stopped being retried: the runner is stopping. */
const ABORTED = Symbol('aborted');

/** Thrown out of the feed loop when one event has used up its attempts. */
class PoisonEventError extends Error {
  constructor(readonly failed: FailedEvent) {
    super(failed.error);
  }
}

/**
 * Runs one processor (projection or reactor): holds its lock (one active runner across
 * processes), prepares its stored state, then follows the event feed, catching up and then live,
 * each unit of work ending with the compare-and-set checkpoint (architecture-anchors §2.4).
 * Failures are retried with backoff on the same events, so an event is never skipped. When a
 * batch fails its events are retried one by one, to commit those before the failing one and name
 * it; when one event keeps failing, the runner stops for good, logs it, records it beside the
 * checkpoint and wakes everyone waiting for it. The other processors keep running.
 */
export class ProcessorRunner {
  private readonly waiters = new ConditionWaiters();
  /** Asks the subscription to read now, past appends it would otherwise read past later. */
  private readonly readNow = new Wakeup();
  private readonly handling: ProcessorHandling;
  private checkpoint: Position | 'start' | null = null;
  private state: RunnerState = 'stopped';
  private caughtUp = false;
  private lastError: string | null = null;
  private failures = 0;
  private failedOn: FailedEvent | null = null;
  /**
   * Set while stop() runs: waiters give up at once instead of timing out, since a reactor of the
   * same host may be waiting on this read model and stop() waits for that reactor in turn.
   */
  private stopping = false;
  /** The failure a previous run recorded beside the checkpoint, until this run gets past it. */
  private storedFailure: string | null = null;
  private publishFailing = false;
  private running: { controller: AbortController; done: Promise<void> } | null = null;
  /** Whether this process owns the processor now (so its heartbeat is worth recording). */
  private owning = false;
  /** The work that moves the checkpoint, one unit at a time: the feed's and the replays'. */
  private exclusive: Promise<unknown> = Promise.resolve();
  private current: { signal: AbortSignal; ownership: Ownership } | null = null;

  constructor(
    readonly processor: Processor,
    private readonly options: ProcessorRunnerOptions,
  ) {
    this.handling = handlingFor(processor, options);
  }

  get name(): string {
    return this.processor.name;
  }

  private get accepts(): ((event: RecordedEvent) => boolean) | undefined {
    const processor = this.processor;
    return 'accepts' in processor && processor.accepts ? (event) => processor.accepts!(event) : undefined;
  }

  /** The committed checkpoint; null until the runner has read it. */
  position(): Position | 'start' | null {
    return this.checkpoint;
  }

  /** Stopped for good on an event: waiting for it is pointless until an operator fixes it. */
  get failed(): FailedEvent | null {
    return this.failedOn;
  }

  /**
   * Why writes that need this processor are refused: it has stopped on an event, here or in a
   * previous run whose failure it has not got past yet (a restart alone does not fix an event).
   */
  refusal(): string | null {
    return this.failedOn ? describeFailedEvent(this.name, this.failedOn) : this.storedFailure;
  }

  /** Starts in the background (also after a failure): waiting for the lock must not hold up the caller. */
  start(): void {
    if (this.running) return;
    const controller = new AbortController();
    this.caughtUp = false;
    this.failedOn = null;
    this.stopping = false;
    const done = this.run(controller.signal)
      .catch((error: unknown) => {
        // Only a failing lock release or logger gets here; everything else is retried inside.
        this.lastError = `runner: ${errorMessage(error)}`;
        this.options.logger.error(
          { processor: this.name, error: errorMessage(error) },
          'processor runner stopped',
        );
      })
      .finally(() => {
        this.state = this.failedOn ? 'failed' : 'stopped';
        if (this.running?.done === done) this.running = null;
      });
    this.running = { controller, done };
  }

  /** Lets the unit of work in flight finish (or roll back), then releases the lock. */
  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.stopping = true;
    this.waiters.recheck();
    running.controller.abort();
    await running.done;
  }

  /**
   * True once the committed checkpoint is at or after the position; false after timeoutMs, as
   * soon as the processor stops for good, or once it is being stopped.
   */
  async waitFor(
    position: Position | null,
    timeoutMs = this.options.defaultWaitTimeoutMs ?? 5000,
  ): Promise<boolean> {
    if (position === null) return true;
    const reached = () => this.checkpoint !== null && isAtOrAfter(this.checkpoint, position);
    if (!reached()) this.readNow.notify();
    await this.waiters.wait(() => reached() || this.failedOn !== null || this.stopping, timeoutMs);
    return reached();
  }

  /** Whether this process holds the processor's lock or lease right now. */
  get owns(): boolean {
    return this.owning;
  }

  /**
   * Carries out the replays operators asked of this processor (see requestReplay), when this
   * process owns it: each parked event is applied again at the current checkpoint, under the same
   * fencing as the feed, and the outcome is recorded beside it. Nothing to do elsewhere.
   */
  async replayRequested(): Promise<void> {
    const current = this.current;
    if (!current || !this.owning || current.signal.aborted) return;
    for (const parked of await requestedReplays(this.options.executor, [this.name])) {
      if (current.signal.aborted) return;
      await this.replay(parked, current.signal, current.ownership);
    }
  }

  private async replay(parked: ParkedEvent, signal: AbortSignal, ownership: Ownership): Promise<void> {
    const { events } = await this.options.store.readStream(parked.streamId, {
      fromRevision: BigInt(parked.revision),
      maxCount: 1,
    });
    const event = events[0];
    let error: string | null = null;
    if (!event || event.position !== parked.position) error = 'the event is no longer in the store';
    else
      try {
        // At the current checkpoint, which the unit re-affirms (compare-and-set) without moving it.
        await this.serially(async () => {
          const at = this.checkpoint!;
          await this.handling.handle([event], at, at, signal, () => ownership.held());
        });
      } catch (failure) {
        if (signal.aborted) return;
        error = errorMessage(failure);
      }
    await recordReplay(this.options.executor, parked.id, error);
    this.options.logger.warn(
      { processor: this.name, parked: parked.id, type: parked.type, position: parked.position, error },
      error === null ? 'parked event replayed' : 'parked event replay failed, it stays parked',
    );
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.exclusive.then(work, work);
    this.exclusive = next.catch(() => undefined);
    return next;
  }

  status(): ProcessorStatus {
    return {
      name: this.name,
      kind: this.handling.kind,
      version: this.handling.version,
      state:
        this.failures > 0 && this.state !== 'stopped' && this.state !== 'failed' ? 'failing' : this.state,
      position: this.checkpoint,
      lagging: !this.caughtUp || this.failures > 0,
      lastError: this.lastError,
      failures: this.failures,
      failedOn: this.failedOn,
    };
  }

  private waitedForOwnership = false;

  private ownershipSource(): OwnershipSource {
    return this.options.ownership ?? advisoryLockOwnership(this.options.executor);
  }

  private async run(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      const ownership = await this.acquireOwnership(stop);
      if (!ownership) return;
      // Work stops when the runner stops or as soon as its ownership is lost.
      const signal = AbortSignal.any([stop, ownership.lost]);
      const source = this.ownershipSource();
      const owns = { processor: this.name, ownership: source.kind };
      if (ownershipIsNews(source, this.waitedForOwnership)) {
        this.options.logger.info(owns, 'processor owns its work here');
      } else this.options.logger.debug?.(owns, 'processor owns its work here');
      this.waitedForOwnership = true; // a later ownership follows a loss
      this.owning = true;
      this.current = { signal, ownership };
      try {
        if ((await this.work(signal, ownership)) === 'failed') return;
      } finally {
        this.owning = false;
        this.current = null;
        await ownership.release();
      }
      if (stop.aborted) return;
      this.caughtUp = false;
      this.options.logger.warn(
        { processor: this.name, error: errorMessage(ownership.lost.reason) },
        'processor lost its ownership, stopped acting and waits for it again',
      );
    }
  }

  /** Prepares and follows the feed while the signal allows; 'failed' once stopped for good on an event. */
  private async work(signal: AbortSignal, ownership: Ownership): Promise<'failed' | void> {
    while (!signal.aborted) {
      this.state = 'starting';
      const prepared = await this.retrying(signal, 'prepare', async () => {
        const position = await this.handling.prepare(signal, () => {
          this.state = 'rebuilding';
        });
        this.storedFailure = (await readCheckpoint(this.options.executor, this.name))?.failure ?? null;
        return position;
      });
      if (prepared === ABORTED) return;
      this.moveTo(prepared);
      try {
        await this.follow(signal, ownership);
        if (!signal.aborted) throw new Error('the event subscription ended');
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof PoisonEventError) {
          await this.fail(error.failed);
          return 'failed';
        }
        if (error instanceof CheckpointConflictError) {
          // Someone else moved it: the unit was rolled back; reload and go on from there.
          this.options.logger.warn(
            { processor: this.name, error: error.message },
            'checkpoint moved, reloading',
          );
          continue;
        }
        this.recordFailure('subscription', error);
        await abortableSleep(this.retryDelay(), signal);
      }
    }
  }

  private async acquireOwnership(signal: AbortSignal): Promise<Ownership | null> {
    const source = this.ownershipSource();
    let reported = false;
    while (!signal.aborted) {
      this.state = 'waiting-for-lock';
      try {
        const ownership = await source.tryAcquire(this.name);
        if (ownership && signal.aborted) await ownership.release();
        else if (ownership) return ownership;
        else if (!reported) {
          reported = true;
          this.waitedForOwnership = true;
          this.options.logger.info(
            { processor: this.name, ownership: source.kind },
            'processor runs in another process, waiting for its lock',
          );
        }
      } catch (error) {
        this.recordFailure('lock', error);
      }
      await abortableSleep(this.options.lockRetryMs ?? 5000, signal);
    }
    return null;
  }

  private async follow(signal: AbortSignal, ownership: Ownership): Promise<void> {
    const batchSize = this.options.batchSize ?? 500;
    const filter: EventFilter | undefined = this.processor.eventTypes
      ? { eventTypes: this.processor.eventTypes }
      : undefined;
    this.state = this.caughtUp ? 'live' : 'catching-up';
    let pending: RecordedEvent[] = [];
    for await (const item of this.options.store.subscribeToAll({
      after: this.checkpoint!,
      filter,
      signal,
      batchSize,
      readNow: this.readNow,
    })) {
      if (item.kind === 'event') {
        // Another partition's event: only the checkpoint moves past it.
        if (this.accepts && !this.accepts(item.event)) continue;
        pending.push(item.event);
        if (pending.length < batchSize) continue;
        if ((await this.commit(pending, item.event.position, signal, ownership)) === ABORTED) return;
      } else {
        // Caught up: flush what we hold, and move the checkpoint even when the filter left nothing
        // to handle, so read-your-writes works for events this processor ignores.
        if ((await this.commit(pending, item.position, signal, ownership)) === ABORTED) return;
        this.caughtUp = true;
        this.state = 'live';
        this.recovered();
      }
      pending = [];
    }
  }

  /** Handles the events and moves the checkpoint to `to`, isolating a failing event when there is one. */
  private async commit(
    events: RecordedEvent[],
    to: Position | 'start',
    signal: AbortSignal,
    ownership: Ownership,
  ): Promise<void | typeof ABORTED> {
    const owner = () => ownership.held();
    if (events.length === 0 && comparePositions(to, this.checkpoint!) <= 0) return;
    const handle = (batch: RecordedEvent[], until: Position | 'start') =>
      this.serially(() => this.handling.handle(batch, this.checkpoint!, until, signal, owner));
    if (events.length > 1 && this.handling.batches) {
      try {
        await handle(events, to);
        return this.committed(to);
      } catch (error) {
        if (error instanceof CheckpointConflictError || signal.aborted) throw error;
        this.recordFailure('apply', error);
      }
    }
    for (const event of events) {
      let outcome: void | typeof ABORTED;
      try {
        outcome = await this.retrying(signal, 'apply', () => handle([event], event.position), event);
      } catch (error) {
        if (!(error instanceof PoisonEventError) || !this.options.parks?.(event)) throw error;
        // A fact from outside that cannot be applied: parked, and the processor goes on past it.
        await this.park(event, error.failed, signal);
        outcome = await this.retrying(signal, 'checkpoint', () => handle([], event.position));
      }
      if (outcome === ABORTED) return ABORTED;
      this.committed(event.position);
    }
    if (comparePositions(to, this.checkpoint!) <= 0) return;
    const outcome = await this.retrying(signal, 'checkpoint', () => handle([], to));
    if (outcome === ABORTED) return ABORTED;
    this.committed(to);
  }

  private committed(to: Position | 'start'): void {
    this.storedFailure = null;
    this.recovered();
    this.moveTo(to);
    this.publish(to);
  }

  /**
   * Runs work until it succeeds, logging and backing off between attempts; a conflict is not retried
   * here. Failures count until the processor makes progress again (recovered()), so the backoff
   * keeps growing across a failing setup and a failing subscription alike. Work on one event gives
   * up after maxAttemptsPerEvent attempts made while the database answered.
   */
  private async retrying<T>(
    signal: AbortSignal,
    what: string,
    work: () => Promise<T>,
    event?: RecordedEvent,
  ): Promise<T | typeof ABORTED> {
    let attempts = 0;
    while (!signal.aborted) {
      try {
        return await work();
      } catch (error) {
        if (error instanceof CheckpointConflictError) throw error;
        if (signal.aborted) break;
        this.recordFailure(what, error);
        // An outage (the database, a code host not answering) is waited out, not blamed on the event.
        if (event && !isOutage(error) && (await this.databaseAnswers())) attempts += 1;
        if (event && attempts >= (this.options.maxAttemptsPerEvent ?? 6)) {
          throw new PoisonEventError({
            type: event.type,
            streamId: event.streamId,
            revision: event.revision.toString(),
            position: event.position,
            error: errorMessage(error),
            attempts,
          });
        }
        await abortableSleep(this.retryDelay(), signal);
      }
    }
    return ABORTED;
  }

  /** Records the event as parked (before the checkpoint moves past it) and says so in the log. */
  private async park(event: RecordedEvent, failed: FailedEvent, signal: AbortSignal): Promise<void> {
    // Recorded before the checkpoint moves on: a crash in between parks it again, once.
    const parked = await this.retrying(signal, 'park', () =>
      parkEvent(this.options.executor, this.name, event, failed.error, failed.attempts),
    );
    if (parked === ABORTED) return;
    this.options.logger.error(
      { processor: this.name, event: failed },
      `processor parked ${event.type} (stream ${event.streamId}, revision ${event.revision}, position ` +
        `${event.position}) after ${failed.attempts} attempts and goes on: ${failed.error}`,
    );
  }

  /** Stops for good: says so in the log, beside the checkpoint (for other processes) and to waiters. */
  private async fail(failed: FailedEvent): Promise<void> {
    const description = describeFailedEvent(this.name, failed);
    this.options.logger.error(
      { processor: this.name, event: failed, position: this.checkpoint },
      `processor stopped: ${description}`,
    );
    // Recorded before anyone in this process is told, so that no reader elsewhere can find the
    // table still saying "running" after a local caller has been refused.
    await recordCheckpointFailure(this.options.executor, this.name, description).catch((error: unknown) =>
      this.options.logger.warn(
        { processor: this.name, error: errorMessage(error) },
        'could not record the failure',
      ),
    );
    this.failedOn = failed;
    this.state = 'failed';
    this.waiters.recheck();
    if (this.checkpoint !== null) this.publish(this.checkpoint);
  }

  private async databaseAnswers(): Promise<boolean> {
    try {
      await this.options.executor.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  private moveTo(position: Position | 'start'): void {
    this.checkpoint = position;
    this.waiters.recheck();
    for (const listener of this.advanceListeners) {
      try {
        listener(position);
      } catch {
        // A listener's failure is its own: the checkpoint has moved either way.
      }
    }
  }

  private readonly advanceListeners = new Set<CheckpointListener>();

  /** Calls the listener after each checkpoint this runner commits; returns the unsubscribe. */
  onAdvance(listener: CheckpointListener): () => void {
    this.advanceListeners.add(listener);
    return () => this.advanceListeners.delete(listener);
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
          { processor: this.name, error: errorMessage(error) },
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
        processor: this.name,
        what,
        failures: this.failures,
        position: this.checkpoint,
        error: errorMessage(error),
      },
      `processor ${what} failed, retrying`,
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

import { DuplicateEventError, WrongExpectedRevisionError } from '../errors';
import { comparePositions } from '../position';
import type { DomainEvent, EventMetadata, EventStore, Position } from '../types';
import { idempotentEventId } from './idempotent-event-id';
import type { SnapshottingDecider } from './snapshot-policy';
import { loadStreamState, snapshotIfDue } from './stream-state';

export interface CommandOutcome<Event> {
  events: Event[];
  /** Global position of the last appended event; null when the command changed nothing. */
  position: Position | null;
  revision: bigint;
  /** The command ran before under the same idempotency key: its events are stored, nothing was appended now. */
  alreadyApplied?: true;
}

export interface HandleOptions {
  /**
   * Makes the command idempotent: its events get ids derived from the key, so when a crash makes a
   * caller (a reactor) issue it again, the append is refused as a duplicate and reported as
   * alreadyApplied instead of recording the change twice. Needs a store with store-wide unique
   * event ids (PGlite, PostgreSQL, in-memory).
   */
  idempotencyKey?: string;
  /**
   * Fencing, for a processor's commands: called right before the command is decided, it throws
   * once the caller no longer owns its work (its lease ran out, it is stopping), so an owner that
   * paused past its lease never appends beside its successor.
   */
  fence?: () => void;
}

/** What recording facts did: appended them, or found them recorded under the same key before. */
export type RecordOutcome =
  { alreadyApplied: false; position: Position } | { alreadyApplied: true; position: null };

export interface CommandServiceOptions {
  maxAttempts?: number;
  /** Base backoff in ms; each retry waits a random time up to base * 2^attempt. */
  backoffMs?: number;
}

/**
 * Load the stream (from its snapshot when the decider keeps them, stream-state.ts), decide, append
 * with the revision read. A concurrent writer makes the append fail with WrongExpectedRevisionError;
 * the command is then decided again on fresh state after a jittered pause, so two racing commands
 * both land, in some order, each decided on what really happened.
 */
export class CommandService {
  private readonly maxAttempts: number;
  private readonly backoffMs: number;

  constructor(
    private readonly store: EventStore,
    options: CommandServiceOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 10;
    this.backoffMs = options.backoffMs ?? 5;
  }

  async handle<State, Command, Event extends DomainEvent>(
    streamId: string,
    decider: SnapshottingDecider<State, Command, Event>,
    command: Command,
    metadata: EventMetadata = {},
    options: HandleOptions = {},
  ): Promise<CommandOutcome<Event>> {
    const { idempotencyKey } = options;
    options.fence?.();
    for (let attempt = 1; ; attempt++) {
      const loaded = await loadStreamState(this.store, streamId, decider);
      await snapshotIfDue(this.store, streamId, decider, loaded);
      const { state, revision } = loaded;
      const events = decider.decide(command, state);
      if (events.length === 0) return { events, position: null, revision };
      try {
        const result = await this.store.appendToStream(
          streamId,
          events.map((event, index) => ({
            type: event.type,
            data: event.data,
            metadata,
            ...(idempotencyKey === undefined ? {} : { eventId: idempotentEventId(idempotencyKey, index) }),
          })),
          { expectedRevision: revision < 0n ? 'no_stream' : revision },
        );
        return { events, position: result.lastPosition, revision: result.nextExpectedRevision };
      } catch (error) {
        if (error instanceof DuplicateEventError && idempotencyKey !== undefined) {
          return { events: [], position: null, revision, alreadyApplied: true };
        }
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= this.maxAttempts) throw error;
        await sleep(Math.random() * this.backoffMs * 2 ** Math.min(attempt, 6));
      }
    }
  }

  /**
   * Records facts from outside (a webhook delivery, what a listing of GitHub shows) as they come:
   * what they say happened elsewhere, so no state of their stream decides them and they are
   * appended at whatever revision it has. They are idempotent as a command is: the key gives the
   * events their ids, so a second recording under it (a redelivery, two processes at once, a
   * restart) appends nothing and says alreadyApplied. The store answers an exact replay of a
   * stored batch with the original append's result, not an error, so a replay is also told apart
   * by its position: a new append always lands after the head read before it.
   */
  async record(
    streamId: string,
    facts: readonly DomainEvent[],
    metadata: EventMetadata,
    options: HandleOptions & { idempotencyKey: string },
  ): Promise<RecordOutcome> {
    options.fence?.();
    const headBefore = await this.store.headPosition();
    try {
      const result = await this.store.appendToStream(
        streamId,
        facts.map((fact, index) => ({
          eventId: idempotentEventId(options.idempotencyKey, index),
          type: fact.type,
          data: fact.data,
          metadata,
        })),
        { expectedRevision: 'any' },
      );
      if (headBefore !== null && comparePositions(result.lastPosition, headBefore) <= 0)
        return { alreadyApplied: true, position: null };
      return { alreadyApplied: false, position: result.lastPosition };
    } catch (error) {
      if (error instanceof DuplicateEventError) return { alreadyApplied: true, position: null };
      throw error;
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

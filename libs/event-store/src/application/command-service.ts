import { DuplicateEventError, WrongExpectedRevisionError } from '../errors';
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
}

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
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

import type { CommandOutcome } from '@switchyard/event-store/application';
import type { DomainEvent, EventMetadata, RecordedEvent } from '@switchyard/event-store';
import type { Decider } from '@switchyard/kernel';

/**
 * A processor with side effects (the merge-queue engine's process managers): it reacts to each
 * event it reads, then its checkpoint moves past that event. A crash between the two makes it
 * react again after the restart, so a reaction must be safe to repeat: results go back into the
 * store as commands issued through the context, whose events carry ids derived from the source
 * event, and the store refuses the second copy.
 */
export interface Reactor {
  /** Stable name, used by the checkpoint table, the lock and /readyz. */
  readonly name: string;
  /** Event types this reactor reads; undefined means every event. */
  readonly eventTypes?: readonly string[];
  /**
   * True for a reactor whose effects only make sense as things happen (comments, notifications):
   * the first time it runs it begins at the store's head, so one added to a deployment that
   * already has a history never acts on that history. Otherwise it begins at the start.
   */
  readonly startsAtHead?: boolean;
  /**
   * For one partition of a reactor (partitionReactor): whether the event is this partition's. The
   * runner only moves its checkpoint past the others, so every event is reacted to once, by the
   * partition that owns its repository.
   */
  accepts?(event: RecordedEvent): boolean;
  /**
   * The reactor this one continues (a partition continues the unpartitioned reactor of the same
   * name): its name keys the commands issued, so that a reaction repeated under the new name
   * records nothing twice, and on the first start the checkpoint begins at the lowest of
   * `succeeds`' checkpoints, so no history is reacted to again.
   */
  readonly lineage?: { name: string; succeeds: readonly string[] };
  /** Handles one event: its side effects, and the commands that record their results. */
  react(event: RecordedEvent, context: ReactionContext): Promise<void>;
}

/**
 * How a processor's command is made idempotent. Left out, a reaction keys it by the reaction (see
 * ReactionContext.issue). A key of the caller's own when one result may be reached from several
 * reactions (an effect's key, stable until the effect is done). Null for a command decided on the
 * stream's current state alone, which decides nothing when issued again; it takes no place in the
 * reaction's count, so the commands after it keep their keys whether it decides anything or not.
 */
export interface IssueOptions {
  idempotencyKey?: string | null;
}

/**
 * The one way a processor writes: CommandService decides the command on its stream's current
 * state and appends it, after checking that the processor still owns its work (fencing), under an
 * idempotency key. Reactors have it in their ReactionContext; a periodic processor builds one with
 * fencedIssuer.
 */
export interface CommandIssuer {
  issue<State, Command, Event extends DomainEvent>(
    streamId: string,
    decider: Decider<State, Command, Event>,
    command: Command,
    metadata?: EventMetadata,
    options?: IssueOptions,
  ): Promise<CommandOutcome<Event>>;
}

/**
 * What a reactor acts with. Its issue() fences each command by the reactor's ownership and, unless
 * IssueOptions say otherwise, keys it by the reactor, the source event's position and the
 * command's place in this reaction, so a reaction run again after a crash appends nothing twice
 * (the outcome then says alreadyApplied). The events record the source event as their causation,
 * unless `metadata` says otherwise.
 */
export interface ReactionContext extends CommandIssuer {
  /** Aborted when the processor stops: long side effects should give up and let the restart redo them. */
  readonly signal: AbortSignal;
  /**
   * Fencing: throws OwnershipLostError once this process no longer owns the reactor's work (its
   * lease was lost, or it is stopping). Call it right before each side effect, so that an owner
   * that paused past its lease never acts beside its successor. issue() calls it too.
   */
  assertOwnership(): void;
}

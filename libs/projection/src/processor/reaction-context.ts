import type { CommandService } from '@switchyard/event-store/application';
import type { RecordedEvent } from '@switchyard/event-store';
import { OwnershipLostError } from '../lock/ownership';
import type { CommandIssuer, ReactionContext } from './reactor';

/**
 * The context of one reaction of `reactor` to `event`: its commands go through `commands`, fenced
 * by the ownership, keyed by the reaction unless the caller keys them otherwise, caused by the event.
 */
export function reactionContext(
  reactor: string,
  event: RecordedEvent,
  commands: CommandService,
  ownership: { signal: AbortSignal; owner: () => boolean },
): ReactionContext {
  const { signal, owner } = ownership;
  let issued = 0;
  const assertOwnership = () => {
    if (signal.aborted || !owner()) throw new OwnershipLostError(reactor);
  };
  return {
    signal,
    assertOwnership,
    issue(streamId, decider, command, metadata = {}, options = {}) {
      // Only a command keyed by the reaction takes a place in its count.
      const idempotencyKey =
        options.idempotencyKey === undefined
          ? `${reactor}:${event.position}:${issued++}`
          : options.idempotencyKey;
      return commands.handle(
        streamId,
        decider,
        command,
        {
          correlationId: event.metadata.correlationId ?? event.eventId,
          causationId: event.eventId,
          ...metadata,
        },
        { fence: assertOwnership, ...(idempotencyKey === null ? {} : { idempotencyKey }) },
      );
    },
  };
}

/**
 * The issuer of a processor that has no reaction to key by (a periodic one, the merge queue's
 * timer): every command fenced by `fence`, keyed only when the caller gives a key.
 */
export function fencedIssuer(commands: CommandService, fence: () => void): CommandIssuer {
  return {
    issue(streamId, decider, command, metadata = {}, options = {}) {
      const { idempotencyKey } = options;
      return commands.handle(streamId, decider, command, metadata, {
        fence,
        ...(idempotencyKey == null ? {} : { idempotencyKey }),
      });
    },
  };
}

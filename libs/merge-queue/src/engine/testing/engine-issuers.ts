import type { RecordedEvent } from '@switchyard/event-store';
import type { CommandService } from '@switchyard/event-store/application';
import {
  fencedIssuer,
  reactionContext,
  type CommandIssuer,
  type ReactionContext,
} from '@switchyard/projection';

/** A process that owns the engine's work throughout: nothing to fence. */
const ownedThroughout = { signal: new AbortController().signal, owner: () => true };

/** Commands a spec issues to set a queue up, as the engine's timer issues its own. */
export const setUpIssuer = (commands: CommandService): CommandIssuer =>
  fencedIssuer(commands, () => undefined);

/** The context the runtime gives `reactor` for its reaction to each event. */
export const reactionsOf =
  (reactor: string, commands: CommandService) =>
  (event: RecordedEvent): ReactionContext =>
    reactionContext(reactor, event, commands, ownedThroughout);

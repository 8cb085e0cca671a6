import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandService } from '@switchyard/event-store/application';
import { type Actor, type Clock, notFound } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import {
  FREEZE_NOT_FOUND_MESSAGE,
  type FreezeChanges,
  scheduledFreezeDecider,
  scheduledFreezeStreamId,
} from '../domain/freeze/scheduled-freeze';
import { type ScheduledFreezeJson, scheduledFreezeJsonOf } from '../json/scheduled-freeze.json';
import { FREEZE_READ_MODELS, ScheduledFreezeQueries } from './scheduled-freeze.queries';

/** PATCH scheduled_freeze/{id}: only the keys sent change. */
export class ChangeFreezeCommand extends Command<ScheduledFreezeJson> {
  constructor(
    readonly repository: string,
    readonly freezeId: string,
    readonly changes: FreezeChanges,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Answers with the freeze as changed, once the freeze read model includes the change. */
@CommandHandler(ChangeFreezeCommand)
export class ChangeFreezeHandler implements ICommandHandler<ChangeFreezeCommand, ScheduledFreezeJson> {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly freezes: ScheduledFreezeQueries,
  ) {}

  async execute({ repository, freezeId, changes, actor }: ChangeFreezeCommand): Promise<ScheduledFreezeJson> {
    const { events } = await readYourWrite(this.freshness, FREEZE_READ_MODELS, () =>
      this.commands.handle(scheduledFreezeStreamId(freezeId), scheduledFreezeDecider, {
        type: 'ChangeFreeze',
        freezeId,
        repository,
        changes,
        actor,
        at: this.clock.now(),
      }),
    );
    if (events.length > 0) return scheduledFreezeJsonOf(events[events.length - 1]!);
    // Nothing changed: the read model is already current.
    const current = await this.freezes.find(repository, freezeId);
    if (!current) throw notFound(FREEZE_NOT_FOUND_MESSAGE);
    return current;
  }
}

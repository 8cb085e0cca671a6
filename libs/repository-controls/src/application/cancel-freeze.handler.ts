import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandService } from '@switchyard/event-store/application';
import type { Actor, Clock } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import { scheduledFreezeDecider, scheduledFreezeStreamId } from '../domain/freeze/scheduled-freeze';
import { FREEZE_READ_MODELS } from './scheduled-freeze.queries';

/** POST scheduled_freeze/{id}/delete (and the deprecated DELETE): a freeze in force needs a reason. */
export class CancelFreezeCommand extends Command<void> {
  constructor(
    readonly repository: string,
    readonly freezeId: string,
    readonly deleteReason: string | null,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Answers once the freeze read model no longer lists the freeze. */
@CommandHandler(CancelFreezeCommand)
export class CancelFreezeHandler implements ICommandHandler<CancelFreezeCommand, void> {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ repository, freezeId, deleteReason, actor }: CancelFreezeCommand): Promise<void> {
    await readYourWrite(this.freshness, FREEZE_READ_MODELS, () =>
      this.commands.handle(scheduledFreezeStreamId(freezeId), scheduledFreezeDecider, {
        type: 'CancelFreeze',
        freezeId,
        repository,
        deleteReason,
        actor,
        at: this.clock.now(),
      }),
    );
  }
}

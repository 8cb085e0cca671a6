import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandService } from '@switchyard/event-store/application';
import type { Actor, Clock } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import { mergeQueuePauseDecider, mergeQueuePauseStreamId } from '../domain/merge-queue-pause';
import { MergeQueuePauseQueries, PAUSE_READ_MODELS } from './merge-queue-pause.queries';

/** DELETE merge-queue/pause (and the legacy DELETE and POST queue/pause/delete). */
export class UnpauseMergeQueueCommand extends Command<void> {
  constructor(
    readonly repository: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

/** Answers once the pause read model includes the unpause; lifting a pause fences nothing. */
@CommandHandler(UnpauseMergeQueueCommand)
export class UnpauseMergeQueueHandler implements ICommandHandler<UnpauseMergeQueueCommand, void> {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly pauses: MergeQueuePauseQueries,
  ) {}

  async execute({ repository, actor }: UnpauseMergeQueueCommand): Promise<void> {
    await this.pauses.writing(repository, () =>
      readYourWrite(this.freshness, PAUSE_READ_MODELS, () =>
        this.commands.handle(mergeQueuePauseStreamId(repository), mergeQueuePauseDecider, {
          type: 'UnpauseMergeQueue',
          repository,
          actor,
          at: this.clock.now(),
        }),
      ),
    );
  }
}

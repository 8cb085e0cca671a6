import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandService } from '@switchyard/event-store/application';
import type { Actor, Clock } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { readYourWrite, waitUntilVisible, type ReadModelFreshness } from '@switchyard/projection';
import {
  type MergeQueuePauseEvent,
  mergeQueuePauseDecider,
  mergeQueuePauseStreamId,
} from '../domain/merge-queue-pause';
import type { PauseView } from '../projections/merge-queue-pause.read-model';
import { MERGE_FENCE, type MergeFence } from './merge-fence';
import { MergeQueuePauseQueries, PAUSE_READ_MODELS } from './merge-queue-pause.queries';

/** PUT merge-queue/pause (and the legacy PUT queue/pause): pause, or change the running pause's reason. */
export class PauseMergeQueueCommand extends Command<PauseView> {
  constructor(
    readonly repository: string,
    readonly reason: string,
    readonly actor: Actor,
  ) {
    super();
  }
}

/**
 * Answers only once the pause read model includes the event (read-your-writes), so a GET right
 * after never shows the old state, and once the repository's merge fence (merge-fence.ts) has
 * passed it: after a 200, nothing merges until the unpause. A wait that ends first answers 202
 * (stored, not yet in force).
 */
@CommandHandler(PauseMergeQueueCommand)
export class PauseMergeQueueHandler implements ICommandHandler<PauseMergeQueueCommand, PauseView> {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MERGE_FENCE) private readonly fence: MergeFence,
    private readonly pauses: MergeQueuePauseQueries,
  ) {}

  async execute({ repository, reason, actor }: PauseMergeQueueCommand): Promise<PauseView> {
    const outcome = await this.pauses.writing(repository, () =>
      readYourWrite(this.freshness, PAUSE_READ_MODELS, () =>
        this.commands.handle(mergeQueuePauseStreamId(repository), mergeQueuePauseDecider, {
          type: 'PauseMergeQueue',
          repository,
          reason,
          actor,
          at: this.clock.now(),
        }),
      ),
    );
    // Not before the write (unlike the read models): a stopped engine must not keep anyone from pausing.
    await waitUntilVisible(this.freshness, this.fence.processorsFor(repository), outcome.position);
    // The answer comes from the event itself: it is what was decided, even if the wait timed out.
    return pauseOf(outcome.events[outcome.events.length - 1]!);
  }
}

function pauseOf(event: MergeQueuePauseEvent): PauseView {
  switch (event.type) {
    case 'merge_queue.paused':
      return { reason: event.data.reason, pausedAt: new Date(event.data.at) };
    case 'merge_queue.pause_reason_changed':
      return { reason: event.data.reason, pausedAt: new Date(event.data.pausedAt) };
    case 'merge_queue.unpaused':
      throw new Error('A pause command cannot unpause');
  }
}

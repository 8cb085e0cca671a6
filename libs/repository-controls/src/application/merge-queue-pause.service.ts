import { Inject, Injectable } from '@nestjs/common';
import type { Position } from '@switchyard/event-store';
import type { CommandService } from '@switchyard/event-store/application';
import type { SqlExecutor } from '@switchyard/sql';
import type { Actor, Clock } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS, SQL_EXECUTOR } from '@switchyard/platform';
import { readYourWrite, waitUntilVisible, type ReadModelFreshness } from '@switchyard/projection';
import { mergeQueuePauseDecider } from '../domain/pause/merge-queue-pause.decider';
import type { MergeQueuePauseEvent } from '../domain/pause/merge-queue-pause.events';
import { mergeQueuePauseStreamId } from '../domain/pause/merge-queue-pause.stream';
import type { PauseView } from '../projections/merge-queue-pause.read-model';
import { findPause } from '../projections/merge-queue-pause.read-model';
import { MERGE_FENCE, type MergeFence } from './merge-fence';
import { PauseReadCache } from './pause-read-cache';
import { PAUSE_READ_MODELS } from './read-models';

/**
 * Pause and unpause a repository's merge queue. Writes answer only once the read models include
 * their events (read-your-writes), so a GET right after a PUT never shows the old state. A pause
 * also waits for the repository's merge fence (merge-fence.ts): once it answers 200, nothing merges
 * until the unpause. A wait that ends first answers 202 (stored, not yet in force).
 */
@Injectable()
export class MergeQueuePauseService {
  private readonly cache = new PauseReadCache();

  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MERGE_FENCE) private readonly fence: MergeFence,
  ) {}

  async pause(repository: string, reason: string, actor: Actor): Promise<PauseView> {
    const outcome = await this.writing(repository, () =>
      this.commands.handle(mergeQueuePauseStreamId(repository), mergeQueuePauseDecider, {
        type: 'PauseMergeQueue',
        repository,
        reason,
        actor,
        at: this.clock.now(),
      }),
    );
    // Not before the write (unlike the read models): a stopped engine must not keep anyone from pausing.
    await waitUntilVisible(this.freshness, this.fence.processorsFor(repository), outcome.position);
    // The answer comes from the event itself: it is what was decided, even if the wait timed out.
    return pauseOf(outcome.events[outcome.events.length - 1]!);
  }

  async unpause(repository: string, actor: Actor): Promise<void> {
    await this.writing(repository, () =>
      this.commands.handle(mergeQueuePauseStreamId(repository), mergeQueuePauseDecider, {
        type: 'UnpauseMergeQueue',
        repository,
        actor,
        at: this.clock.now(),
      }),
    );
  }

  /** From the read cache: this process's own writes show at once, other processes' within a second. */
  current(repository: string): Promise<PauseView | null> {
    return this.cache.read(repository, () => findPause(this.sql, repository));
  }

  /** Read-your-writes, then this process forgets the pause it cached (even if the wait timed out). */
  private async writing<T extends { position: Position | null }>(
    repository: string,
    write: () => Promise<T>,
  ): Promise<T> {
    try {
      return await readYourWrite(this.freshness, PAUSE_READ_MODELS, write);
    } finally {
      this.cache.invalidate(repository);
    }
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

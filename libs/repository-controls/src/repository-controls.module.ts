import { Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CancelFreezeHandler } from './application/cancel-freeze.handler';
import { ChangeFreezeHandler } from './application/change-freeze.handler';
import { MERGE_FENCE, type MergeFence } from './application/merge-fence';
import { MergeQueuePauseQueries } from './application/merge-queue-pause.queries';
import { PauseMergeQueueHandler } from './application/pause-merge-queue.handler';
import { ScheduleFreezeHandler } from './application/schedule-freeze.handler';
import { ScheduledFreezeQueries } from './application/scheduled-freeze.queries';
import { UnpauseMergeQueueHandler } from './application/unpause-merge-queue.handler';
import { LegacyQueuePauseController } from './http/legacy-queue-pause.controller';
import { MergeQueuePauseController } from './http/merge-queue-pause.controller';
import { ScheduledFreezeController } from './http/scheduled-freeze.controller';

/**
 * Merge-queue pause and scheduled freezes, end to end. Needs the platform tokens (COMMAND_SERVICE,
 * READ_MODEL_FRESHNESS, SQL_EXECUTOR, CLOCK) and the auth guard from the app; the app registers
 * repositoryControlsProjections with the projection runner and repositoryControlsLogMapping with
 * the activity-log projection. The app says which processors fence a pause (forRoot).
 */
@Module({
  imports: [CqrsModule],
  controllers: [MergeQueuePauseController, LegacyQueuePauseController, ScheduledFreezeController],
  providers: [
    MergeQueuePauseQueries,
    PauseMergeQueueHandler,
    UnpauseMergeQueueHandler,
    ScheduledFreezeQueries,
    ScheduleFreezeHandler,
    ChangeFreezeHandler,
    CancelFreezeHandler,
  ],
})
export class RepositoryControlsModule {
  static forRoot(options: { mergeFence: MergeFence }): DynamicModule {
    return {
      module: RepositoryControlsModule,
      providers: [{ provide: MERGE_FENCE, useValue: options.mergeFence }],
    };
  }
}

import { Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { mergeQueuePauseBusHandlers } from './application/bus/merge-queue-pause.bus';
import { scheduledFreezeBusHandlers } from './application/bus/scheduled-freeze.bus';
import { MERGE_FENCE, type MergeFence } from './application/merge-fence';
import { MergeQueuePauseService } from './application/merge-queue-pause.service';
import { ScheduledFreezeService } from './application/scheduled-freeze.service';
import { LegacyQueuePauseController } from './http/legacy-queue-pause.controller';
import { MergeQueuePauseController } from './http/merge-queue-pause.controller';
import { ScheduledFreezeController } from './http/scheduled-freeze.controller';

/**
 * Merge-queue pause and scheduled freezes, end to end. Needs the platform tokens (COMMAND_SERVICE,
 * READ_MODEL_FRESHNESS, SQL_EXECUTOR, CLOCK) and the auth guard from the app; the app registers
 * repositoryControlsProjections with the projection runner and repositoryControlsLogMapping with
 * the activity-log projection. ScheduledFreezeService is exported for the merge-queue engine
 * (calendar()). The app says which processors fence a pause (forRoot).
 */
@Module({
  imports: [CqrsModule],
  controllers: [MergeQueuePauseController, LegacyQueuePauseController, ScheduledFreezeController],
  providers: [
    MergeQueuePauseService,
    ScheduledFreezeService,
    ...mergeQueuePauseBusHandlers,
    ...scheduledFreezeBusHandlers,
  ],
  exports: [MergeQueuePauseService, ScheduledFreezeService],
})
export class RepositoryControlsModule {
  static forRoot(options: { mergeFence: MergeFence }): DynamicModule {
    return {
      module: RepositoryControlsModule,
      providers: [{ provide: MERGE_FENCE, useValue: options.mergeFence }],
    };
  }
}

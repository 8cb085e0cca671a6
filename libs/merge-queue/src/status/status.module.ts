import { Module } from '@nestjs/common';
import type { EventStore } from '@switchyard/event-store';
import type { CommandService } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import {
  CLOCK,
  COMMAND_SERVICE,
  EVENT_STORE,
  READ_MODEL_FRESHNESS,
  SQL_EXECUTOR,
} from '@switchyard/platform';
import type { ReadModelFreshness } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { LegacyQueuesController } from './http/legacy-queues.controller';
import { MergeQueueStatusController } from './http/merge-queue-status.controller';
import { QueueStatusService } from './queue-status.service';

/** The merge queue's read side over HTTP: status, pull-request detail, dequeue, legacy queues. */
@Module({
  controllers: [MergeQueueStatusController, LegacyQueuesController],
  providers: [
    {
      provide: QueueStatusService,
      inject: [SQL_EXECUTOR, EVENT_STORE, COMMAND_SERVICE, CLOCK, READ_MODEL_FRESHNESS],
      useFactory: (
        sql: SqlQueryable,
        store: EventStore,
        commands: CommandService,
        clock: Clock,
        freshness: ReadModelFreshness,
      ) => new QueueStatusService(sql, store, commands, clock, freshness),
    },
  ],
})
export class StatusModule {}

import { Module } from '@nestjs/common';
import { CODE_HOST, type CodeHost } from '@switchyard/code-host';
import { CodeHostModule } from '@switchyard/code-host/nest';
import { CodeHostConfigurationSource } from '@switchyard/config/application/code-host-configuration-source';
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
import { MergeConditionsReader } from './merge-conditions';
import { QueueStatusService } from './queue-status.service';

/** The merge queue's read side over HTTP: status, pull-request detail, dequeue, legacy queues. */
@Module({
  imports: [CodeHostModule],
  controllers: [MergeQueueStatusController, LegacyQueuesController],
  exports: [QueueStatusService],
  providers: [
    {
      provide: QueueStatusService,
      inject: [SQL_EXECUTOR, EVENT_STORE, COMMAND_SERVICE, CLOCK, READ_MODEL_FRESHNESS, CODE_HOST],
      useFactory: (
        sql: SqlQueryable,
        store: EventStore,
        commands: CommandService,
        clock: Clock,
        freshness: ReadModelFreshness,
        codeHost: CodeHost,
      ) =>
        new QueueStatusService(
          sql,
          store,
          commands,
          clock,
          freshness,
          new MergeConditionsReader(new CodeHostConfigurationSource(codeHost), sql, clock),
        ),
    },
  ],
})
export class StatusModule {}

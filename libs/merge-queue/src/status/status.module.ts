import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CODE_HOST, type CodeHost } from '@switchyard/code-host';
import { CodeHostModule } from '@switchyard/code-host/nest';
import { CodeHostConfigurationSource } from '@switchyard/mergify-config/application/code-host-configuration-source';
import type { EventStore } from '@switchyard/event-store';
import type { Clock } from '@switchyard/kernel';
import { CLOCK, EVENT_STORE, SQL_EXECUTOR } from '@switchyard/platform';
import type { SqlQueryable } from '@switchyard/sql';
import { RequestDequeueHandler } from '../application/request-dequeue.handler';
import { LegacyQueuesController } from './http/legacy-queues.controller';
import { MergeQueueStatusController } from './http/merge-queue-status.controller';
import { MergeConditionsReader } from './merge-conditions';
import { QueueStatusService } from './queue-status.service';

/** The merge queue's status over HTTP: status, pull-request detail, dequeue, legacy queues. */
@Module({
  imports: [CodeHostModule, CqrsModule],
  controllers: [MergeQueueStatusController, LegacyQueuesController],
  exports: [QueueStatusService],
  providers: [
    {
      provide: QueueStatusService,
      inject: [SQL_EXECUTOR, EVENT_STORE, CLOCK, CODE_HOST],
      useFactory: (sql: SqlQueryable, store: EventStore, clock: Clock, codeHost: CodeHost) =>
        new QueueStatusService(
          sql,
          store,
          clock,
          new MergeConditionsReader(new CodeHostConfigurationSource(codeHost), sql, clock),
        ),
    },
    RequestDequeueHandler,
  ],
})
export class StatusModule {}

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
import { PullRequestScopesService } from '../status/pull-request-scopes.service';
import { PullRequestScopesController } from './pull-request-scopes.controller';
import { QueueSimulationController } from './queue-simulation.controller';
import { QueueStatisticsController } from './queue-statistics.controller';

/** The merge queue's HTTP surface. The engine itself runs as reactors beside the projections. */
@Module({
  controllers: [PullRequestScopesController, QueueStatisticsController, QueueSimulationController],
  providers: [
    {
      provide: PullRequestScopesService,
      inject: [SQL_EXECUTOR, EVENT_STORE, COMMAND_SERVICE, CLOCK, READ_MODEL_FRESHNESS],
      useFactory: (
        sql: SqlQueryable,
        store: EventStore,
        commands: CommandService,
        clock: Clock,
        freshness: ReadModelFreshness,
      ) => new PullRequestScopesService(sql, store, commands, clock, freshness),
    },
  ],
})
export class MergeQueueModule {}

import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { SQL_EXECUTOR } from '@switchyard/platform';
import type { SqlQueryable } from '@switchyard/sql';
import { ReportPullRequestScopesHandler } from '../application/report-pull-request-scopes.handler';
import { QueueStatisticsQueries } from '../statistics/queue-statistics.queries';
import { PullRequestScopesController } from './pull-request-scopes.controller';
import { QueueSimulationController } from './queue-simulation.controller';
import { QueueStatisticsController } from './queue-statistics.controller';

/** The merge queue's HTTP surface. The engine itself runs as reactors beside the projections. */
@Module({
  imports: [CqrsModule],
  controllers: [PullRequestScopesController, QueueStatisticsController, QueueSimulationController],
  providers: [
    ReportPullRequestScopesHandler,
    {
      provide: QueueStatisticsQueries,
      useFactory: (sql: SqlQueryable) => new QueueStatisticsQueries(sql),
      inject: [SQL_EXECUTOR],
    },
  ],
})
export class MergeQueueModule {}

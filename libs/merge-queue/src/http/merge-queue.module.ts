import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ReportPullRequestScopesHandler } from '../application/report-pull-request-scopes.handler';
import { PullRequestScopesController } from './pull-request-scopes.controller';

/** The merge queue's HTTP surface. The engine itself runs as reactors beside the projections. */
@Module({
  imports: [CqrsModule],
  controllers: [PullRequestScopesController],
  providers: [ReportPullRequestScopesHandler],
})
export class MergeQueueModule {}

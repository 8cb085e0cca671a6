import { Module } from '@nestjs/common';
import { PullRequestScopesController } from './pull-request-scopes.controller';

/** The merge queue's HTTP surface. The engine itself runs as reactors beside the projections. */
@Module({ controllers: [PullRequestScopesController] })
export class MergeQueueModule {}

import { Module } from '@nestjs/common';
import { ActivityLogQueries } from './application/activity-log-queries';
import { ActivityLogController } from './http/activity-log.controller';

/**
 * GET logs and GET logs/aggregate. Needs the platform tokens (SQL_EXECUTOR, CLOCK) and the auth
 * guard from the app; the app registers createActivityLogProjection(mappings) with the projection
 * runner, one mapping table per bounded context.
 */
@Module({
  controllers: [ActivityLogController],
  providers: [ActivityLogQueries],
  exports: [ActivityLogQueries],
})
export class ActivityLogModule {}

import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { LogQuery, LogQueryParameters } from '../domain/log-query';
import type { LogAggregate } from '../query/aggregate-logs';
import type { LogPage, PageStart } from '../query/list-logs';
import { ActivityLogQueries } from './activity-log-queries';

/* Nest's QueryBus is plumbing: it routes the controller's request to ActivityLogQueries. */

export class ListActivityLogQuery extends Query<{ query: LogQuery; page: LogPage }> {
  constructor(
    readonly repository: string,
    readonly params: LogQueryParameters,
    readonly perPage: number,
    readonly start?: PageStart,
  ) {
    super();
  }
}

export class AggregateActivityLogQuery extends Query<LogAggregate> {
  constructor(
    readonly repository: string,
    readonly params: LogQueryParameters,
  ) {
    super();
  }
}

@QueryHandler(ListActivityLogQuery)
export class ListActivityLogHandler implements IQueryHandler<ListActivityLogQuery> {
  constructor(private readonly logs: ActivityLogQueries) {}
  execute({ repository, params, perPage, start }: ListActivityLogQuery) {
    return this.logs.page(repository, params, perPage, start);
  }
}

@QueryHandler(AggregateActivityLogQuery)
export class AggregateActivityLogHandler implements IQueryHandler<AggregateActivityLogQuery> {
  constructor(private readonly logs: ActivityLogQueries) {}
  execute({ repository, params }: AggregateActivityLogQuery) {
    return this.logs.aggregate(repository, params);
  }
}

export const activityLogBusHandlers = [ListActivityLogHandler, AggregateActivityLogHandler];

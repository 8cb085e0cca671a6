import { Inject, Injectable } from '@nestjs/common';
import type { SqlQueryable } from '@switchyard/event-store';
import type { Clock } from '@switchyard/kernel';
import { CLOCK, SQL_EXECUTOR } from '@switchyard/platform';
import { buildLogQuery, type LogQuery, type LogQueryParameters } from '../domain/log-query';
import { AggregateLogs, type LogAggregate } from '../query/aggregate-logs';
import { ListLogs, type LogPage, type PageStart } from '../query/list-logs';

/** GET logs and GET logs/aggregate over the read model: parameters in, pages and counts out. */
@Injectable()
export class ActivityLogQueries {
  private readonly lists: ListLogs;
  private readonly aggregates: AggregateLogs;

  constructor(
    @Inject(SQL_EXECUTOR) sql: SqlQueryable,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.lists = new ListLogs(sql);
    this.aggregates = new AggregateLogs(sql);
  }

  /** One page; also returns the resolved query, whose window the next cursors carry. */
  async page(
    repository: string,
    params: LogQueryParameters,
    perPage: number,
    start?: PageStart,
  ): Promise<{ query: LogQuery; page: LogPage }> {
    const query = buildLogQuery(repository, params, this.clock.now());
    return { query, page: await this.lists.page(query, perPage, start) };
  }

  aggregate(repository: string, params: LogQueryParameters): Promise<LogAggregate> {
    return this.aggregates.aggregate(buildLogQuery(repository, params, this.clock.now()));
  }
}

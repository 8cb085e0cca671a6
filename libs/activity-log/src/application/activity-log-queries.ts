import { Inject, Injectable } from '@nestjs/common';
import type { EventStore } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import type { Clock } from '@switchyard/kernel';
import { CLOCK, EVENT_STORE, READ_MODEL_FRESHNESS, SQL_EXECUTOR } from '@switchyard/platform';
import { readAtHead, type ReadModelFreshness } from '@switchyard/projection';
import { buildLogQuery, type LogQuery, type LogQueryParameters } from '../domain/log-query';
import { ACTIVITY_LOG_PROJECTION } from '../projection/activity-log-projection';
import { AggregateLogs, type LogAggregate } from '../query/aggregate-logs';
import { ListLogs, type LogPage, type PageStart } from '../query/list-logs';

const LOG_READ_MODELS = [ACTIVITY_LOG_PROJECTION];

/**
 * GET logs and GET logs/aggregate over the read model: parameters in, pages and counts out.
 *
 * Read-your-writes for the log is kept on the read side: each read includes everything stored when
 * the request arrived (readAtHead). Every write is logged, so making the writes wait for the log
 * instead would let a rebuilding or lagging log slow every write in the service; this way it delays
 * only the log's own readers, and it holds across processes, whoever wrote.
 */
@Injectable()
export class ActivityLogQueries {
  private readonly lists: ListLogs;
  private readonly aggregates: AggregateLogs;

  constructor(
    @Inject(SQL_EXECUTOR) sql: SqlQueryable,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
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
    const page = await this.atHead(() => this.lists.page(query, perPage, start));
    return { query, page };
  }

  async aggregate(repository: string, params: LogQueryParameters): Promise<LogAggregate> {
    const query = buildLogQuery(repository, params, this.clock.now());
    return this.atHead(() => this.aggregates.aggregate(query));
  }

  private atHead<T>(read: () => Promise<T>): Promise<T> {
    return readAtHead(this.freshness, () => this.store.headPosition(), LOG_READ_MODELS, read);
  }
}

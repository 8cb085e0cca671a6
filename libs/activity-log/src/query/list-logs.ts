import type { SqlQueryable } from '@switchyard/sql';
import type { LogQuery } from '../domain/log-query';
import { activeDimensions, rowConditions } from './filter-conditions';
import { LOG_ROW_COLUMNS, toLogEventView, type LogEventView, type LogRow } from './log-event-view';
import { SqlParams } from './sql-params';

/** A place in the newest-first order: (received_at, id) is unique, so a keyset never skips or repeats. */
export interface LogPosition {
  receivedAt: Date;
  id: number;
}

/** next: the records older than the position; prev: the page of records newer than it. */
export interface PageStart {
  direction: 'next' | 'prev';
  position: LogPosition;
}

export interface LogPage {
  events: LogEventView[];
  /** Where the following (older) page starts; null on the last page. */
  next: PageStart | null;
  /** Where the preceding (newer) page starts; null on the first page. */
  prev: PageStart | null;
}

const positionOf = (event: LogEventView): LogPosition => ({
  receivedAt: new Date(event.received_at),
  id: event.id,
});

/**
 * One page of GET logs: a single statement reading per_page + 1 rows by keyset, so the extra row
 * tells whether another page follows without counting.
 */
export class ListLogs {
  constructor(private readonly db: SqlQueryable) {}

  async page(query: LogQuery, perPage: number, start?: PageStart): Promise<LogPage> {
    const backwards = start?.direction === 'prev';
    const rows = await this.fetch(query, perPage + 1, start);
    const more = rows.length > perPage;
    const events = rows.slice(0, perPage).map(toLogEventView);
    if (backwards) events.reverse();

    if (backwards && !more) {
      // Walking back reached the newest records: serve the true first page so it is full.
      return this.page(query, perPage);
    }
    const first = events[0];
    const last = events[events.length - 1];
    if (backwards) {
      return {
        events,
        next: last ? { direction: 'next', position: positionOf(last) } : null,
        prev: first ? { direction: 'prev', position: positionOf(first) } : null,
      };
    }
    return {
      events,
      next: more && last ? { direction: 'next', position: positionOf(last) } : null,
      prev: start && first ? { direction: 'prev', position: positionOf(first) } : null,
    };
  }

  /** The statement of one page, exposed so the benchmark can time it without HTTP. */
  statement(query: LogQuery, limit: number, start?: PageStart): { sql: string; params: unknown[] } {
    const params = new SqlParams();
    const conditions = [
      `l.repository = ${params.add(query.repository)}`,
      `l.received_at >= ${params.add(query.window.from.toISOString())}::timestamptz`,
      `l.received_at <= ${params.add(query.window.to.toISOString())}::timestamptz`,
      ...rowConditions(query.filters, activeDimensions(query.filters), params),
    ];
    const backwards = start?.direction === 'prev';
    if (start) {
      const at = params.add(start.position.receivedAt.toISOString());
      const id = params.add(start.position.id);
      conditions.push(`(l.received_at, l.id) ${backwards ? '>' : '<'} (${at}::timestamptz, ${id}::bigint)`);
    }
    const order = backwards ? 'ASC' : 'DESC';
    const sql = `SELECT ${LOG_ROW_COLUMNS} FROM sy_activity_log l
WHERE ${conditions.join('\n  AND ')}
ORDER BY l.received_at ${order}, l.id ${order}
LIMIT ${params.add(limit)}`;
    return { sql, params: params.values };
  }

  private async fetch(query: LogQuery, limit: number, start?: PageStart): Promise<LogRow[]> {
    const { sql, params } = this.statement(query, limit, start);
    const { rows } = await this.db.query<LogRow>(sql, params);
    return rows;
  }
}

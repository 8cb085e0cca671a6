import type { EventFilter } from '../types';
import { EVENT_COLUMNS } from './event-rows';
import { filterBranches } from './sql-filter';

/** Rows whose transaction is older than every one still running: nothing can commit behind them. */
export const SETTLED = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

/**
 * One page of the settled feed after the position ($1 transaction id, $2 global position), at most
 * $3 events in (transaction_id, global_position) order, with the settled head on every row: head and
 * page come from one statement, hence one snapshot, so a reader whose page runs short may jump to
 * the head without skipping an event that settled in between (architecture-anchors §2.3).
 *
 * A filtered page is a k-way merge: one branch per wanted event type (or category), each an ordered
 * scan of an index that leads with that equality and goes on with (transaction_id, global_position).
 * The branches are LIMITed subqueries so PostgreSQL plans each as an ordered scan, and the outer
 * ORDER BY makes it merge them (Merge Append) and pull from each only as far as the page needs: a
 * page costs about its own size however many other events lie between, instead of a scan of the rest
 * of the feed per page. A dense type may still be read through the feed index; that too stays in
 * proportion to what the page returns.
 */
export function feedPageSql(filter: EventFilter | undefined, params: unknown[]): string {
  const { branches, residual } = filterBranches(filter, params);
  const branch = (condition: string) => `(
    SELECT ${EVENT_COLUMNS}, transaction_id AS sort_xid, global_position AS sort_gp FROM sy_events
    WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint) AND ${SETTLED}${condition}${residual}
    ORDER BY sy_events.transaction_id, sy_events.global_position LIMIT $3)`;
  const merged = branches.length > 0 ? branches.map(branch).join(' UNION ALL ') : branch(' AND false');
  return `WITH head AS (
      SELECT transaction_id, global_position FROM sy_events WHERE ${SETTLED}
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1)
    SELECT head.transaction_id::text AS head_xid, head.global_position::text AS head_gp, page.*
    FROM head LEFT JOIN (
      SELECT * FROM (${merged}) AS feed ORDER BY feed.sort_xid, feed.sort_gp LIMIT $3) AS page ON true
    ORDER BY page.sort_xid, page.sort_gp`;
}

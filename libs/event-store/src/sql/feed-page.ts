import type { EventFilter } from '../types';
import { eventColumns } from './event-rows';
import { SETTLED, withSettledHorizon } from './settled-horizon';
import { filterBranches, filterConditions } from './sql-filter';

const AFTER = '(transaction_id, global_position) > ($1::text::xid8, $2::bigint)';
const FEED_ORDER = 'ORDER BY sy_events.transaction_id, sy_events.global_position';

/**
 * One page of the settled feed (settled-horizon.ts) after the position ($1 transaction id, $2 global position): at most
 * $3 events in (transaction_id, global_position) order, then one more row, the settled head, with
 * no event id. Head and page come from one statement, hence one snapshot, so a reader whose page runs
 * short may jump to the head without skipping an event that settled in between (architecture-anchors
 * §2.3). The head row follows the page instead of being joined to every row, which made PostgreSQL
 * sort the page once more.
 *
 * A filtered page is a k-way merge: one branch per wanted event type (or category), each an ordered
 * scan of an index that leads with that equality and goes on with (transaction_id, global_position).
 * The branches are LIMITed subqueries so PostgreSQL plans each as an ordered scan, and the outer
 * ORDER BY makes it merge them (Merge Append) and pull from each only as far as the page needs: a
 * page costs about its own size however many other events lie between, instead of a scan of the rest
 * of the feed per page. A dense type may still be read through the feed index; that too stays in
 * proportion to what the page returns.
 *
 * With `heldIds` (a uuid[] placeholder), the rows of those events come without data and metadata,
 * which the reader holds already (RecentAppends).
 */
export function feedPageSql(
  filter: EventFilter | undefined,
  params: unknown[],
  options: { nearHead?: boolean; heldIds?: string } = {},
): string {
  const columns = eventColumns(options.heldIds);
  const page =
    options.nearHead && wantsSeveral(filter)
      ? onePassPage(filter, params, columns)
      : branchedPage(filter, params, columns);
  return withSettledHorizon(`(${page})
    UNION ALL
    (SELECT NULL, NULL, transaction_id::text, global_position::text, NULL, NULL, NULL, NULL, NULL, NULL
     FROM sy_events WHERE ${SETTLED}
     ORDER BY sy_events.transaction_id DESC, sy_events.global_position DESC LIMIT 1)`);
}

const wantsSeveral = (filter: EventFilter | undefined): boolean =>
  new Set(filter?.eventTypes ?? filter?.streamCategories ?? []).size > 1;

/**
 * Near the head (ReadAllOptions.nearHead) the feed index from the position on holds only the
 * latest appends: one ordered scan of it, each row checked against the filter, reads them for
 * less than it costs to plan a branch per type (about 12 ms for the activity log's 52 types, paid
 * by every reader that steps past an upload it does not want). A burst of unwanted appends since
 * the last read is scanned once, in proportion to its size.
 */
const onePassPage = (filter: EventFilter | undefined, params: unknown[], columns: string): string =>
  `SELECT ${columns} FROM sy_events WHERE ${AFTER} AND ${SETTLED}${filterConditions(filter, params)}
   ${FEED_ORDER} LIMIT $3`;

function branchedPage(filter: EventFilter | undefined, params: unknown[], columns: string): string {
  const { branches, residual } = filterBranches(filter, params);
  const where = (condition: string) => `WHERE ${AFTER} AND ${SETTLED}${condition}${residual}`;
  return branches.length === 1
    ? `SELECT ${columns} FROM sy_events ${where(branches[0]!)} ${FEED_ORDER} LIMIT $3`
    : `SELECT ${EVENT_COLUMN_NAMES} FROM (${(branches.length > 0 ? branches : [' AND false'])
        .map(
          (condition) => `(
              SELECT ${columns}, transaction_id AS sort_xid, global_position AS sort_gp
              FROM sy_events ${where(condition)} ${FEED_ORDER} LIMIT $3)`,
        )
        .join(' UNION ALL ')}) AS feed ORDER BY feed.sort_xid, feed.sort_gp LIMIT $3`;
}

/** The output names of EVENT_COLUMNS, in its order (the head row above lines up with them). */
const EVENT_COLUMN_NAMES = [
  'stream_id',
  'stream_revision',
  'transaction_id',
  'global_position',
  'event_id',
  'event_type',
  'schema_version',
  'data',
  'metadata',
  'recorded_at',
].join(', ');

import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import type { Projection } from '@switchyard/projection';
import type { LogMapping } from '@switchyard/activity-log-contract';
import { activityLogBulkLoad } from './activity-log-bulk-load';
import { ACTIVITY_LOG_SCHEMA, ACTIVITY_LOG_TABLES } from './activity-log-schema';
import { combineMappings, toLogRecordRows } from './log-record-rows';
import { writeLogRecords } from './log-record-writer';

export const ACTIVITY_LOG_PROJECTION = 'activity-log';

/** Tables earlier versions of the read model had. */
const RETIRED_TABLES = ['sy_activity_log_daily_pull', 'sy_activity_log_daily_batch_pull'];

/**
 * The activity log as a projection over every domain event some bounded context maps (one
 * LogMapping per context). The runner applies events in global order inside the transaction that
 * moves the checkpoint.
 *
 * It reads only the event types its mappings know: the event store serves a type-filtered read
 * from an index, in time proportional to the events it returns.
 */
export function createActivityLogProjection(mappings: readonly LogMapping[]): Projection {
  const mappers = combineMappings(mappings);
  return {
    name: ACTIVITY_LOG_PROJECTION,
    // 2: records keyed by event position, json metadata, daily, 15-minute and span tables.
    // 3: the `<verb>_by_staff` flags beside every actor (rows written before lacked them).
    // 4: Mergify's batch fields on the queue's records (batch_id, batch_name, scopes, all_scopes,
    //    parent and previous batches, merge_commit_sha, the bisection's confirmed and dropped lists).
    version: 4,
    eventTypes: [...mappers.keys()],
    async setup(tx: SqlQueryable) {
      await tx.exec(ACTIVITY_LOG_SCHEMA);
    },
    async reset(tx: SqlQueryable) {
      // Recreated rather than truncated, so a new version's table shapes replace the old ones; an
      // empty table also restarts ids at 1, so a rebuild hands out the same ids again.
      await tx.exec(`DROP TABLE IF EXISTS ${[...ACTIVITY_LOG_TABLES, ...RETIRED_TABLES].join(', ')}`);
      await tx.exec(ACTIVITY_LOG_SCHEMA);
    },
    async apply(tx: SqlQueryable, events: readonly RecordedEvent[]) {
      await writeLogRecords(tx, toLogRecordRows(mappers, events));
    },
    bulkLoad: () => activityLogBulkLoad(mappers),
    async countRecords(q: SqlQueryable) {
      const { rows } = await q.query<{ count: string }>('SELECT count(*) AS count FROM sy_activity_log');
      return Number(rows[0]?.count ?? 0);
    },
  };
}

import type { SqlQueryable } from '@switchyard/sql';
import type { BulkLoad } from '@switchyard/projection';
import type { LogMapper } from '@switchyard/activity-log-contract';
import { ACTIVITY_LOG_INDEXES_DDL, ACTIVITY_LOG_TABLES_DDL } from './activity-log-schema';
import { toLogRecordRows } from './log-record-rows';
import { DERIVE_ROLLUPS, bulkInsertLogRecords } from './log-record-writer';

/**
 * The activity log's rebuild path: plain multi-row inserts of the records into a table with only
 * its primary key, then every rollup and span counted in one pass each (a GROUP BY over the
 * whole table instead of an upsert per batch), then the secondary indexes, each built once.
 */
export function activityLogBulkLoad(mappers: ReadonlyMap<string, LogMapper>): BulkLoad {
  return {
    async createTables(tx: SqlQueryable) {
      await tx.exec(ACTIVITY_LOG_TABLES_DDL);
    },
    async apply(tx, events) {
      await bulkInsertLogRecords(tx, toLogRecordRows(mappers, events));
    },
    async finish(tx) {
      // Index builds sort; a larger budget keeps the sorts in memory (this transaction only).
      await tx.query(`SELECT set_config('maintenance_work_mem', '256MB', true)`);
      for (const statement of DERIVE_ROLLUPS) await tx.query(statement);
      await tx.exec(ACTIVITY_LOG_INDEXES_DDL);
    },
  };
}

import type { SqlQueryable } from '@switchyard/sql';
import type { BulkLoad } from '@switchyard/projection';
import type { LogMapper } from '@switchyard/activity-log-contract';
import { ACTIVITY_LOG_INDEXES, ACTIVITY_LOG_TABLES_DDL } from './activity-log-schema';
import { toLogRecordRows } from './log-record-rows';
import { LOG_RECORD_COLUMNS, logRecordCopyText } from './log-record-writer';
import { RollupFold } from './rollup-fold';

/**
 * The activity log's rebuild path, one per rebuild:
 *  - the records go in with COPY into a table with only its primary key, ids continuing in feed
 *    order exactly as writeLogRecords hands them out (the table holds exactly the records of the
 *    events before each batch, so nothing needs skipping), two batches in flight at once;
 *  - every rollup and span is folded in memory as the records pass, and written once at the end;
 *  - then the secondary indexes, each built once over the whole table; the finishing steps (each
 *    log index, each derived table with its indexes) run side by side.
 */
export function activityLogBulkLoad(mappers: ReadonlyMap<string, LogMapper>): BulkLoad {
  const rollups = new RollupFold();
  /** The largest id handed out so far. */
  let lastId = 0;
  return {
    async createTables(tx: SqlQueryable) {
      await tx.exec(ACTIVITY_LOG_TABLES_DDL);
      const { rows } = await tx.query<{ id: string }>(
        'SELECT coalesce(max(id), 0)::text AS id FROM sy_activity_log',
      );
      lastId = Number(rows[0]!.id);
    },
    // Ids and rollups are taken before the first await, so in feed order (see batchesInFlight); a
    // batch reads nothing the one before wrote.
    batchesInFlight: 2,
    async apply(tx, events) {
      const rows = toLogRecordRows(mappers, events);
      if (rows.length === 0) return;
      const text = logRecordCopyText(rows, lastId + 1);
      lastId += rows.length;
      rollups.add(rows);
      await tx.copyFrom('sy_activity_log', LOG_RECORD_COLUMNS, text);
    },
    finishSteps() {
      const indexesOf = (table: string) => ACTIVITY_LOG_INDEXES.filter((index) => index.table === table);
      const logIndexes = indexesOf('sy_activity_log').map((index) => async (tx: SqlQueryable) => {
        await withSortMemory(tx);
        await tx.exec(index.ddl);
      });
      const derived = [...rollups.tables()].map(({ table, columns, text }) => async (tx: SqlQueryable) => {
        if (text.length > 0) await tx.copyFrom(table, columns, text);
        await withSortMemory(tx);
        for (const index of indexesOf(table)) await tx.exec(index.ddl);
      });
      // The log's own indexes are the longest steps: they start first.
      return [...logIndexes, ...derived];
    },
  };
}

/** Index builds sort; a larger budget keeps the sorts in memory (for the step's transaction only). */
const withSortMemory = (tx: SqlQueryable) =>
  tx.query(`SELECT set_config('maintenance_work_mem', '256MB', true)`);

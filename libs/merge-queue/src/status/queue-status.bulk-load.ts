import type { BulkLoad } from '@switchyard/projection';
import { copyLine, type SqlQueryable } from '@switchyard/sql';
import { eventsByQueueStream, foldQueueBatch, type QueueStatusRow } from './queue-batch-fold';
import {
  ACTIVITY_COLUMNS,
  HISTORY_COLUMNS,
  QUEUE_ACTIVITY_TABLE,
  QUEUE_STATUS_HISTORY_TABLE,
  QUEUE_STATUS_INDEX_DDL,
  QUEUE_STATUS_TABLE,
  QUEUE_STATUS_TABLES_DDL,
  STATUS_COLUMNS,
} from './queue-status.schema';

/**
 * The queue status's rebuild path, one per rebuild. The status rows (one per repository and base
 * branch: few) are kept in memory exactly as apply leaves the table, so each stream's fold
 * continues from what apply would read back, without a round trip; they are written once at the
 * end. History points and activity minutes go in with COPY, one of each per batch; minutes are
 * remembered per queue, as the table's ON CONFLICT DO NOTHING would keep each once. The history's
 * secondary index is built after the load.
 */
export function queueStatusBulkLoad(): BulkLoad {
  /** By repository key and base ref. */
  const queues = new Map<string, { row: QueueStatusRow; minutes: Set<number> }>();
  /**
   * Each row under the stream that inserted it: apply reads a stream's fold back by stream_id,
   * which the upsert never changes, so a stream may read another stream's later fold of the same
   * queue, or none (streams of one queue per batch, as the bench's workload writes them).
   */
  const byStream = new Map<string, QueueStatusRow>();
  return {
    async createTables(tx: SqlQueryable) {
      await tx.exec(QUEUE_STATUS_TABLES_DDL);
    },
    // Everything is folded before the first await, so in feed order; nothing is read back.
    batchesInFlight: 2,
    async apply(tx, events) {
      let history = '';
      let activity = '';
      for (const [streamId, streamEvents] of eventsByQueueStream(events)) {
        const folded = foldQueueBatch(streamId, byStream.get(streamId) ?? null, streamEvents);
        for (const point of folded.history)
          history += copyLine([streamId, point.revision, point.lastEventAt, point.fold]);
        if (!folded.status) continue;
        const { row, minutes } = folded.status;
        const key = JSON.stringify([row.repositoryKey, row.baseRef]);
        let queue = queues.get(key);
        if (queue) Object.assign(queue.row, { revision: row.revision, active: row.active, fold: row.fold });
        else {
          queue = { row, minutes: new Set() };
          queues.set(key, queue);
          if (!byStream.has(streamId)) byStream.set(streamId, row);
        }
        for (const minute of minutes) {
          if (queue.minutes.has(minute)) continue;
          queue.minutes.add(minute);
          activity += copyLine([row.repositoryKey, row.baseRef, minute]);
        }
      }
      if (history) await tx.copyFrom(QUEUE_STATUS_HISTORY_TABLE, HISTORY_COLUMNS, history);
      if (activity) await tx.copyFrom(QUEUE_ACTIVITY_TABLE, ACTIVITY_COLUMNS, activity);
    },
    finishSteps() {
      const writeStatus = async (tx: SqlQueryable) => {
        const text = [...queues.values()]
          .map(({ row }) =>
            copyLine([
              row.repositoryKey,
              row.baseRef,
              row.streamId,
              row.revision,
              row.firstEventAt,
              row.active ? 't' : 'f',
              JSON.stringify(row.fold),
            ]),
          )
          .join('');
        if (text) await tx.copyFrom(QUEUE_STATUS_TABLE, STATUS_COLUMNS, text);
      };
      const indexHistory = (tx: SqlQueryable) => tx.exec(QUEUE_STATUS_INDEX_DDL);
      return [writeStatus, indexHistory];
    },
  };
}

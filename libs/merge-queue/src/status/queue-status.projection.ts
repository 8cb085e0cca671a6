import type { RecordedEvent } from '@switchyard/event-store';
import type { Projection } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { mergeQueueEventTypes } from '../domain/events';
import { eventsByQueueStream, foldQueueBatch } from './queue-batch-fold';
import { queueStatusBulkLoad } from './queue-status.bulk-load';
import {
  QUEUE_ACTIVITY_TABLE,
  QUEUE_STATUS_HISTORY_TABLE,
  QUEUE_STATUS_INDEX_DDL,
  QUEUE_STATUS_TABLE,
  QUEUE_STATUS_TABLES_DDL,
} from './queue-status.schema';
import type { QueueStatusFold } from './status-fold';

export { ACTIVITY_BUCKET_MS, HISTORY_EVERY } from './queue-batch-fold';
export { QUEUE_ACTIVITY_TABLE, QUEUE_STATUS_HISTORY_TABLE, QUEUE_STATUS_TABLE } from './queue-status.schema';

/**
 * The merge queue as the status endpoints serve it: per repository and base branch, the queue's
 * status fold at the stream's last event (one row, read without replay), and the fold every
 * HISTORY_EVERY events with the time of its last event (the starting points of `?at=`).
 */
export const queueStatusProjection: Projection = {
  name: 'merge_queue.status',
  // 2: folds keep the batches shown after they left the train (merged, waiting_for_requeue).
  version: 2,
  eventTypes: mergeQueueEventTypes,

  async setup(tx) {
    await tx.exec(QUEUE_STATUS_TABLES_DDL + QUEUE_STATUS_INDEX_DDL);
  },

  async reset(tx) {
    await tx.exec(
      `DELETE FROM ${QUEUE_STATUS_TABLE}; DELETE FROM ${QUEUE_STATUS_HISTORY_TABLE}; DELETE FROM ${QUEUE_ACTIVITY_TABLE};`,
    );
  },

  async apply(tx, events) {
    for (const [streamId, streamEvents] of eventsByQueueStream(events))
      await applyToQueue(tx, streamId, streamEvents);
  },

  bulkLoad: queueStatusBulkLoad,

  async countRecords(q) {
    const { rows } = await q.query<{ count: string | number }>(
      `SELECT count(*) AS count FROM ${QUEUE_STATUS_TABLE}`,
    );
    return Number(rows[0]?.count ?? 0);
  },
};

async function applyToQueue(tx: SqlQueryable, streamId: string, events: RecordedEvent[]): Promise<void> {
  const { rows } = await tx.query<{ revision: string | number; fold: string }>(
    `SELECT revision, fold FROM ${QUEUE_STATUS_TABLE} WHERE stream_id = $1`,
    [streamId],
  );
  const stored = rows[0]
    ? { revision: BigInt(rows[0].revision), fold: JSON.parse(rows[0].fold) as QueueStatusFold }
    : null;
  const { history, status } = foldQueueBatch(streamId, stored, events);
  for (const point of history)
    await tx.query(
      `INSERT INTO ${QUEUE_STATUS_HISTORY_TABLE} (stream_id, revision, last_event_at, fold)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [streamId, point.revision.toString(), point.lastEventAt, point.fold],
    );
  if (!status) return;
  const { row, minutes } = status;
  for (const minute of minutes)
    await tx.query(
      `INSERT INTO ${QUEUE_ACTIVITY_TABLE} (repository_key, base_ref, minute) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [row.repositoryKey, row.baseRef, minute],
    );
  await tx.query(
    `INSERT INTO ${QUEUE_STATUS_TABLE} (repository_key, base_ref, stream_id, revision, first_event_at, active, fold)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (repository_key, base_ref) DO UPDATE SET revision = EXCLUDED.revision,
       active = EXCLUDED.active, fold = EXCLUDED.fold`,
    [
      row.repositoryKey,
      row.baseRef,
      row.streamId,
      row.revision.toString(),
      row.firstEventAt,
      row.active,
      JSON.stringify(row.fold),
    ],
  );
}

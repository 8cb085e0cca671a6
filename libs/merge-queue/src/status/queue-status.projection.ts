import type { RecordedEvent } from '@switchyard/event-store';
import type { Projection } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { mergeQueueEventTypes, type MergeQueueEvent } from '../domain/events';
import { evolveStatus, initialStatusFold, type QueueStatusFold } from './status-fold';

export const QUEUE_STATUS_TABLE = 'merge_queue_status';
export const QUEUE_STATUS_HISTORY_TABLE = 'merge_queue_status_history';
/** The minutes in which each queue had events (GET queues/branches over a time range). */
export const QUEUE_ACTIVITY_TABLE = 'merge_queue_status_activity';
export const ACTIVITY_BUCKET_MS = 60_000;
/** A queue's fold is kept aside every this many of its events, so `?at=` folds at most this many. */
export const HISTORY_EVERY = 50;
const QUEUE_STREAM_PREFIX = 'merge_queue-';

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
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${QUEUE_STATUS_TABLE} (
        repository_key text NOT NULL,
        base_ref text NOT NULL,
        stream_id text NOT NULL,
        revision bigint NOT NULL,
        first_event_at bigint NOT NULL,
        active boolean NOT NULL,
        fold text NOT NULL,
        PRIMARY KEY (repository_key, base_ref)
      );
      CREATE TABLE IF NOT EXISTS ${QUEUE_STATUS_HISTORY_TABLE} (
        stream_id text NOT NULL,
        revision bigint NOT NULL,
        last_event_at bigint NOT NULL,
        fold text NOT NULL,
        PRIMARY KEY (stream_id, revision)
      );
      CREATE TABLE IF NOT EXISTS ${QUEUE_ACTIVITY_TABLE} (
        repository_key text NOT NULL,
        base_ref text NOT NULL,
        minute bigint NOT NULL,
        PRIMARY KEY (repository_key, minute, base_ref)
      );
      CREATE INDEX IF NOT EXISTS ${QUEUE_STATUS_HISTORY_TABLE}_at ON ${QUEUE_STATUS_HISTORY_TABLE} (stream_id, last_event_at);
    `);
  },

  async reset(tx) {
    await tx.exec(
      `DELETE FROM ${QUEUE_STATUS_TABLE}; DELETE FROM ${QUEUE_STATUS_HISTORY_TABLE}; DELETE FROM ${QUEUE_ACTIVITY_TABLE};`,
    );
  },

  async apply(tx, events) {
    const byStream = new Map<string, RecordedEvent[]>();
    for (const event of events) {
      if (!event.streamId.startsWith(QUEUE_STREAM_PREFIX)) continue;
      byStream.set(event.streamId, [...(byStream.get(event.streamId) ?? []), event]);
    }
    for (const [streamId, streamEvents] of byStream) await applyToQueue(tx, streamId, streamEvents);
  },

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
  let revision = rows[0] ? BigInt(rows[0].revision) : -1n;
  let fold: QueueStatusFold = rows[0] ? (JSON.parse(rows[0].fold) as QueueStatusFold) : initialStatusFold();
  let lastEventAt = 0;
  const minutes = new Set<number>();
  for (const event of events) {
    // Replays after a crash may hand back events already folded: the revision says which.
    if (event.revision <= revision) continue;
    const domainEvent = { type: event.type, data: event.data } as MergeQueueEvent;
    fold = evolveStatus(fold, domainEvent);
    revision = event.revision;
    lastEventAt = Date.parse(domainEvent.data.occurredAt);
    minutes.add(Math.floor(lastEventAt / ACTIVITY_BUCKET_MS));
    if ((revision + 1n) % BigInt(HISTORY_EVERY) === 0n)
      await tx.query(
        `INSERT INTO ${QUEUE_STATUS_HISTORY_TABLE} (stream_id, revision, last_event_at, fold)
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [streamId, revision.toString(), lastEventAt, JSON.stringify(fold)],
      );
  }
  const { repository, baseRef } = fold.queue;
  if (repository === null || baseRef === null || lastEventAt === 0) return;
  for (const minute of minutes)
    await tx.query(
      `INSERT INTO ${QUEUE_ACTIVITY_TABLE} (repository_key, base_ref, minute) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [repository.toLowerCase(), baseRef, minute],
    );
  await tx.query(
    `INSERT INTO ${QUEUE_STATUS_TABLE} (repository_key, base_ref, stream_id, revision, first_event_at, active, fold)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (repository_key, base_ref) DO UPDATE SET revision = EXCLUDED.revision,
       active = EXCLUDED.active, fold = EXCLUDED.fold`,
    [
      repository.toLowerCase(),
      baseRef,
      streamId,
      revision.toString(),
      fold.firstEventAt ?? lastEventAt,
      Object.keys(fold.queue.pullRequests).length > 0,
      JSON.stringify(fold),
    ],
  );
}

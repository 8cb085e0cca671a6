import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import type { Projection } from '@switchyard/projection';
import { type MergeQueuePauseEvent, mergeQueuePauseEventTypes } from '../domain/merge-queue-pause';

export const PAUSE_TABLE = 'repository_merge_queue_pauses';

/**
 * One row per repository that was ever paused. An unpause keeps the row (paused = false) so that
 * last_position survives: every write is guarded by it, so applying an event twice, or an older
 * event after a newer one, changes nothing.
 */
export const mergeQueuePauseProjection: Projection = {
  name: 'repository.merge_queue_pause',
  version: 1,
  eventTypes: mergeQueuePauseEventTypes,

  async setup(tx) {
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${PAUSE_TABLE} (
        repository_key text PRIMARY KEY,
        paused boolean NOT NULL,
        reason text,
        paused_at timestamptz,
        last_position text COLLATE "C" NOT NULL
      );
    `);
  },

  async reset(tx) {
    await tx.exec(`DELETE FROM ${PAUSE_TABLE};`);
  },

  async apply(tx, events) {
    for (const event of events) await applyOne(tx, event);
  },
};

function rowOf(event: MergeQueuePauseEvent): {
  paused: boolean;
  reason: string | null;
  pausedAt: string | null;
} {
  switch (event.type) {
    case 'merge_queue.paused':
      return { paused: true, reason: event.data.reason, pausedAt: event.data.at };
    case 'merge_queue.pause_reason_changed':
      return { paused: true, reason: event.data.reason, pausedAt: event.data.pausedAt };
    case 'merge_queue.unpaused':
      return { paused: false, reason: null, pausedAt: null };
  }
}

const isPauseEvent = (event: RecordedEvent): boolean =>
  (mergeQueuePauseEventTypes as readonly string[]).includes(event.type);

async function applyOne(tx: SqlQueryable, recorded: RecordedEvent): Promise<void> {
  if (!isPauseEvent(recorded)) return;
  const event = { type: recorded.type, data: recorded.data } as MergeQueuePauseEvent;
  const row = rowOf(event);
  await tx.query(
    `INSERT INTO ${PAUSE_TABLE} (repository_key, paused, reason, paused_at, last_position)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (repository_key) DO UPDATE
       SET paused = EXCLUDED.paused, reason = EXCLUDED.reason, paused_at = EXCLUDED.paused_at,
           last_position = EXCLUDED.last_position
       WHERE ${PAUSE_TABLE}.last_position < EXCLUDED.last_position`,
    [event.data.repository, row.paused, row.reason, row.pausedAt, recorded.position],
  );
}

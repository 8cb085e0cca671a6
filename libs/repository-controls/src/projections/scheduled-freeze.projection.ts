import type { Position, RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import { clampStorableInstantText } from '@switchyard/kernel';
import type { FreezeAttributes } from '../domain/freeze/freeze-attributes';
import type { Projection } from '@switchyard/projection';
import { type ScheduledFreezeEvent, scheduledFreezeEventTypes } from '../domain/freeze/scheduled-freeze';
import { scheduledFreezeAttributesJson } from '../json/scheduled-freeze.json';

export const FREEZE_TABLE = 'repository_scheduled_freezes';

/**
 * One row per freeze: the attributes exactly as responses echo them (a `json` column keeps the
 * text as written, key order included) and the resolved instants for listing and the calendar.
 * A cancelled freeze keeps a tombstone row so its last_position still guards against replays.
 *
 * Version 2 clamps the instants into the storable range: versions before the range was enforced
 * accepted freezes such as a year-0000 start in Europe/Paris, whose instant no timestamptz column
 * takes, and stalled on them for good. Clamped, such a freeze holds from the first storable instant,
 * which is what it meant; its attributes still echo the naive times as the caller wrote them.
 */
export const scheduledFreezeProjection: Projection = {
  name: 'repository.scheduled_freezes',
  version: 2,
  eventTypes: scheduledFreezeEventTypes,

  async setup(tx) {
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${FREEZE_TABLE} (
        id uuid PRIMARY KEY,
        repository_key text NOT NULL,
        attributes json NOT NULL,
        start_at timestamptz NOT NULL,
        end_at timestamptz,
        cancelled boolean NOT NULL,
        last_position text COLLATE "C" NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${FREEZE_TABLE}_by_repository
        ON ${FREEZE_TABLE} (repository_key, start_at, id) WHERE NOT cancelled;
    `);
  },

  async reset(tx) {
    await tx.exec(`DELETE FROM ${FREEZE_TABLE};`);
  },

  async apply(tx, events) {
    for (const event of events) await applyOne(tx, event);
  },
};

async function applyOne(tx: SqlQueryable, recorded: RecordedEvent): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as ScheduledFreezeEvent;
  switch (event.type) {
    case 'scheduled_freeze.scheduled':
      await upsert(tx, recorded.position, event.data, event.data.attributes);
      return;
    case 'scheduled_freeze.changed':
      await upsert(tx, recorded.position, event.data, event.data.after);
      return;
    case 'scheduled_freeze.cancelled':
      await tx.query(
        `UPDATE ${FREEZE_TABLE} SET cancelled = true, last_position = $2
         WHERE id = $1 AND last_position < $2`,
        [event.data.freezeId, recorded.position],
      );
      return;
  }
}

async function upsert(
  tx: SqlQueryable,
  position: Position,
  data: { freezeId: string; repository: string; startAt: string; endAt: string | null },
  attributes: FreezeAttributes,
): Promise<void> {
  await tx.query(
    `INSERT INTO ${FREEZE_TABLE} (id, repository_key, attributes, start_at, end_at, cancelled, last_position)
     VALUES ($1, $2, $3::json, $4, $5, false, $6)
     ON CONFLICT (id) DO UPDATE
       SET repository_key = EXCLUDED.repository_key, attributes = EXCLUDED.attributes,
           start_at = EXCLUDED.start_at, end_at = EXCLUDED.end_at, last_position = EXCLUDED.last_position
       WHERE ${FREEZE_TABLE}.last_position < EXCLUDED.last_position
         AND NOT ${FREEZE_TABLE}.cancelled`,
    [
      data.freezeId,
      data.repository,
      JSON.stringify(scheduledFreezeAttributesJson(attributes)),
      clampStorableInstantText(data.startAt),
      data.endAt === null ? null : clampStorableInstantText(data.endAt),
      position,
    ],
  );
}

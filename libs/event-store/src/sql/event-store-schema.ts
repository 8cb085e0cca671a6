import { SQL_STREAM_CATEGORY } from '../stream-category';
import { APPEND_FUNCTION } from './append-function';
import { SETTLED_HORIZON_FUNCTION } from './settled-horizon';
import { SNAPSHOT_SCHEMA } from './sql-snapshot-store';
import { LONG_WORK, type SqlExecutor } from '@switchyard/sql';

/**
 * One schema for PGlite and PostgreSQL. The pair (transaction_id, global_position) is the global
 * order: catch-up readers only take rows whose transaction id is below the settled horizon, the
 * oldest append still in flight (settled-horizon.ts), so a slow append can delay the feed but never
 * slip an event in behind a reader's checkpoint (architecture-anchors §2.3). Appends go through the sy_append function (append-function.ts),
 * which locks the stream before its first write so each stream's events keep their order in it.
 * Filtered reads merge ordered scans of the by-type and by-category indexes (feed-page.ts).
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS sy_streams (
  stream_id  text PRIMARY KEY,
  revision   bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE SEQUENCE IF NOT EXISTS sy_events_global_position;
CREATE TABLE IF NOT EXISTS sy_events (
  global_position bigint NOT NULL DEFAULT nextval('sy_events_global_position'),
  transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id       text NOT NULL REFERENCES sy_streams (stream_id),
  stream_revision bigint NOT NULL,
  event_id        uuid NOT NULL,
  event_type      text NOT NULL,
  schema_version  integer NOT NULL,
  data            jsonb NOT NULL,
  metadata        jsonb NOT NULL,
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream_id, stream_revision),
  CONSTRAINT sy_events_event_id_key UNIQUE (event_id),
  CONSTRAINT sy_events_global_position_key UNIQUE (global_position)
);
CREATE INDEX IF NOT EXISTS sy_events_feed ON sy_events (transaction_id, global_position);
CREATE INDEX IF NOT EXISTS sy_events_by_type ON sy_events (event_type, transaction_id, global_position);
CREATE INDEX IF NOT EXISTS sy_events_by_category
  ON sy_events (${SQL_STREAM_CATEGORY}, transaction_id, global_position);
${SNAPSHOT_SCHEMA}`;

/**
 * An event's data is compressed with lz4 instead of PostgreSQL's default pglz when the server has
 * it: a test upload's event (about 170 kB of JSON) took 3.0 ms to append with pglz, 1.8 ms with
 * lz4, read back as fast (bench/README, test engine). Only new rows change; the check keeps a
 * restart from taking the table's lock again. PGlite is built without lz4.
 */
const LZ4_EVENT_DATA = `
DO $$ BEGIN
  IF (SELECT attcompression FROM pg_attribute
      WHERE attrelid = 'sy_events'::regclass AND attname = 'data') IS DISTINCT FROM 'l' THEN
    ALTER TABLE sy_events ALTER COLUMN data SET COMPRESSION lz4;
  END IF;
EXCEPTION WHEN feature_not_supported THEN NULL;
END $$;`;

/** Concurrent first starts of several processes must not race on CREATE IF NOT EXISTS. */
export const SCHEMA_LOCK_KEY = 4_242_001;

export async function ensureEventStoreSchema(executor: SqlExecutor): Promise<void> {
  await executor.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    await tx.exec(SCHEMA);
    if (executor.dialect === 'postgres') await tx.exec(LZ4_EVENT_DATA);
    await tx.exec(APPEND_FUNCTION);
    await tx.exec(SETTLED_HORIZON_FUNCTION);
    // Waits for another process's setup under the lock; the lz4 change takes the table's lock.
  }, LONG_WORK);
}

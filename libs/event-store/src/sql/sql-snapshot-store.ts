import type { SnapshotStore, StoredSnapshot } from '../snapshots';
import type { JsonValue } from '../types';
import type { SqlQueryable } from '@switchyard/sql';

/**
 * Next to the events, one row per stream, state name and version: a deployment that changes the
 * state's shape bumps the version and never reads the rows of the old one, and during a rolling
 * deployment old and new processes each keep their own row.
 */
export const SNAPSHOT_SCHEMA = `
CREATE TABLE IF NOT EXISTS sy_snapshots (
  stream_id  text NOT NULL,
  name       text NOT NULL,
  version    integer NOT NULL,
  revision   bigint NOT NULL,
  event_id   uuid NOT NULL,
  state      jsonb NOT NULL,
  taken_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream_id, name, version)
);
`;

export class SqlSnapshotStore implements SnapshotStore {
  constructor(private readonly sql: SqlQueryable) {}

  async read(streamId: string, name: string, version: number): Promise<StoredSnapshot | null> {
    const { rows } = await this.sql.query<{ revision: string; event_id: string; state: JsonValue }>(
      `SELECT revision::text AS revision, event_id::text AS event_id, state FROM sy_snapshots
       WHERE stream_id = $1 AND name = $2 AND version = $3`,
      [streamId, name, version],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      streamId,
      name,
      version,
      revision: BigInt(row.revision),
      eventId: row.event_id,
      state: row.state,
    };
  }

  async write(snapshot: StoredSnapshot): Promise<void> {
    await this.sql.query(
      `INSERT INTO sy_snapshots AS s (stream_id, name, version, revision, event_id, state)
       VALUES ($1, $2, $3, $4::bigint, $5::uuid, $6::jsonb)
       ON CONFLICT (stream_id, name, version) DO UPDATE
       SET revision = excluded.revision, event_id = excluded.event_id, state = excluded.state, taken_at = now()
       WHERE s.revision < excluded.revision`,
      [
        snapshot.streamId,
        snapshot.name,
        snapshot.version,
        snapshot.revision.toString(),
        snapshot.eventId,
        JSON.stringify(snapshot.state),
      ],
    );
  }
}

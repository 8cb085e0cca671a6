import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import type { Projection } from '../projection';

/**
 * The rebuild property test's sample read model: per stream, how many events and the type of the
 * last one. Idempotent the way real projections must be: a revision guard skips what it has seen.
 */
export interface CounterOptions {
  name: string;
  streamPrefix: string;
  eventTypes?: readonly string[];
}

export interface CounterRow {
  streamId: string;
  events: number;
  lastType: string;
}

export function counterProjection(options: CounterOptions): Projection {
  const table = options.name;
  return {
    name: options.name,
    version: 1,
    eventTypes: options.eventTypes,
    async setup(tx) {
      await tx.exec(`CREATE TABLE IF NOT EXISTS ${table} (
        stream_id text PRIMARY KEY, events int NOT NULL, last_type text NOT NULL, last_revision bigint NOT NULL)`);
    },
    async reset(tx) {
      await tx.query(`DELETE FROM ${table}`);
    },
    async apply(tx, events) {
      for (const event of events) {
        if (!event.streamId.startsWith(options.streamPrefix)) continue;
        await tx.query(
          `INSERT INTO ${table} (stream_id, events, last_type, last_revision) VALUES ($1, 1, $2, $3::bigint)
           ON CONFLICT (stream_id) DO UPDATE
             SET events = ${table}.events + 1, last_type = EXCLUDED.last_type, last_revision = EXCLUDED.last_revision
             WHERE ${table}.last_revision < EXCLUDED.last_revision`,
          [event.streamId, event.type, event.revision.toString()],
        );
      }
    },
    async countRecords(q) {
      const { rows } = await q.query<{ count: string }>(`SELECT count(*)::text AS count FROM ${table}`);
      return Number(rows[0]!.count);
    },
  };
}

export async function readCounters(q: SqlQueryable, name: string): Promise<CounterRow[]> {
  const { rows } = await q.query<{ stream_id: string; events: number; last_type: string }>(
    `SELECT stream_id, events, last_type FROM ${name} ORDER BY stream_id`,
  );
  return rows.map((row) => ({
    streamId: row.stream_id,
    events: Number(row.events),
    lastType: row.last_type,
  }));
}

/** The same read model computed in memory from the events, as the oracle. */
export function expectedCounters(
  events: ReadonlyArray<Pick<RecordedEvent, 'streamId' | 'type'>>,
  options: Omit<CounterOptions, 'name'>,
): CounterRow[] {
  const byStream = new Map<string, CounterRow>();
  for (const event of events) {
    if (!event.streamId.startsWith(options.streamPrefix)) continue;
    if (options.eventTypes && !options.eventTypes.includes(event.type)) continue;
    const row = byStream.get(event.streamId) ?? { streamId: event.streamId, events: 0, lastType: event.type };
    byStream.set(event.streamId, { ...row, events: row.events + 1, lastType: event.type });
  }
  return [...byStream.values()].sort((a, b) =>
    a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0,
  );
}

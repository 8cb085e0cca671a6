import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import type { Projection } from '../projection';

/**
 * Counts how many times each event was applied, so a test can tell "applied exactly once" from
 * "applied twice and the upsert hid it". It deliberately does not guard against replays.
 */
export interface TallyOptions {
  name: string;
  /** Only events of streams starting with it are recorded (the shared store holds other tests' events). */
  streamPrefix: string;
  version?: number;
  eventTypes?: readonly string[];
  /** While it returns true, apply throws. */
  failWhile?: () => boolean;
  /** Apply throws whenever the events include one of this type (a poison event). */
  poisonType?: string;
}

export interface TallyRow {
  eventId: string;
  streamId: string;
  type: string;
  version: number;
  applied: number;
}

export function tallyProjection(options: TallyOptions): Projection {
  const table = options.name;
  const version = options.version ?? 1;
  return {
    name: options.name,
    version,
    eventTypes: options.eventTypes,
    async setup(tx) {
      await tx.exec(`CREATE TABLE IF NOT EXISTS ${table} (
        event_id text PRIMARY KEY, stream_id text NOT NULL, event_type text NOT NULL,
        version int NOT NULL, applied int NOT NULL)`);
    },
    async reset(tx) {
      await tx.query(`DELETE FROM ${table}`);
    },
    async apply(tx, events) {
      if (options.failWhile?.()) throw new Error(`${table} cannot apply right now`);
      if (events.some((event) => event.type === options.poisonType)) {
        throw new Error(`${table} cannot apply ${options.poisonType}`);
      }
      const mine = events.filter((event: RecordedEvent) => event.streamId.startsWith(options.streamPrefix));
      if (mine.length === 0) return;
      await tx.query(
        `INSERT INTO ${table} (event_id, stream_id, event_type, version, applied)
         SELECT e.event_id, e.stream_id, e.event_type, $4, 1
         FROM unnest($1::text[], $2::text[], $3::text[]) AS e(event_id, stream_id, event_type)
         ON CONFLICT (event_id) DO UPDATE SET applied = ${table}.applied + 1`,
        [mine.map((e) => e.eventId), mine.map((e) => e.streamId), mine.map((e) => e.type), version],
      );
    },
    async countRecords(q) {
      const { rows } = await q.query<{ count: string }>(`SELECT count(*)::text AS count FROM ${table}`);
      return Number(rows[0]!.count);
    },
  };
}

export async function readTally(q: SqlQueryable, name: string): Promise<TallyRow[]> {
  const { rows } = await q.query<{
    event_id: string;
    stream_id: string;
    event_type: string;
    version: number;
    applied: number;
  }>(`SELECT event_id, stream_id, event_type, version, applied FROM ${name} ORDER BY stream_id, event_id`);
  return rows.map((row) => ({
    eventId: row.event_id,
    streamId: row.stream_id,
    type: row.event_type,
    version: Number(row.version),
    applied: Number(row.applied),
  }));
}

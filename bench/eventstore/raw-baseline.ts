import type { NewEvent } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';

/**
 * The floor our store is compared with: the same row shape in a plain table (a bigserial key and
 * nothing else: no stream row, no xid8, no unique event id), written and read the plainest way.
 */
export class RawBaseline {
  private revision = 0;

  constructor(private readonly executor: SqlExecutor) {}

  async setup(): Promise<void> {
    await this.executor.exec(`
      CREATE TABLE raw_events (
        id              bigserial PRIMARY KEY,
        stream_id       text NOT NULL,
        stream_revision bigint NOT NULL,
        event_id        uuid NOT NULL,
        event_type      text NOT NULL,
        schema_version  integer NOT NULL,
        data            jsonb NOT NULL,
        metadata        jsonb NOT NULL,
        recorded_at     timestamptz NOT NULL DEFAULT now()
      )`);
  }

  /** One autocommitted single-row INSERT. */
  async insertOne(streamId: string, event: NewEvent & { eventId: string }): Promise<void> {
    await this.executor.query(
      `INSERT INTO raw_events (stream_id, stream_revision, event_id, event_type, schema_version, data, metadata)
       VALUES ($1, $2, $3::uuid, $4, 1, $5::jsonb, $6::jsonb)`,
      [
        streamId,
        this.revision++,
        event.eventId,
        event.type,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
      ],
    );
  }

  /** One autocommitted multi-row INSERT through unnest, as our append does. */
  async insertBatch(streamId: string, events: Array<NewEvent & { eventId: string }>): Promise<void> {
    const first = this.revision;
    this.revision += events.length;
    await this.executor.query(
      `INSERT INTO raw_events (stream_id, stream_revision, event_id, event_type, schema_version, data, metadata)
       SELECT $1, $2::bigint + t.ord, t.event_id::uuid, t.event_type, 1, t.data::jsonb, t.metadata::jsonb
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[])
            WITH ORDINALITY AS t(event_id, event_type, data, metadata, ord)`,
      [
        streamId,
        first,
        events.map((e) => e.eventId),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => JSON.stringify(e.metadata)),
      ],
    );
  }

  /**
   * A keyset-paged reader of every row, each parsed into the same object our readAll returns: each
   * call reads one page and says whether that was the last; count holds the rows read so far.
   */
  pageReader(pageSize: number): { next: () => Promise<boolean>; count: () => number } {
    let after = '0';
    let total = 0;
    const next = async () => {
      const { rows } = await this.executor.query<RawRow>(
        `SELECT id::text AS id, stream_id, stream_revision::text AS stream_revision, event_id::text AS event_id,
                event_type, schema_version, data, metadata, recorded_at
         FROM raw_events WHERE raw_events.id > $1::bigint ORDER BY raw_events.id LIMIT $2`,
        [after, pageSize],
      );
      const events = rows.map((row) => ({
        streamId: row.stream_id,
        revision: BigInt(row.stream_revision),
        position: row.id.padStart(20, '0'),
        eventId: row.event_id,
        type: row.event_type,
        schemaVersion: row.schema_version,
        data: row.data,
        metadata: row.metadata,
        recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
      }));
      total += events.length;
      if (rows.length < pageSize) return true;
      after = rows[rows.length - 1]!.id;
      return false;
    };
    return { next, count: () => total };
  }
}

interface RawRow {
  id: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: object;
  metadata: object;
  recorded_at: Date | string;
}

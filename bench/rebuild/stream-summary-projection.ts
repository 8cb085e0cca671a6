import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import type { Projection } from '@switchyard/projection';

/**
 * The simple projection of performance-anchors §2.2: one row per stream (events seen, last type,
 * last revision), each page folded per stream in memory and written as one multi-row upsert.
 */
export const STREAM_SUMMARY_TABLE = 'bench_stream_summary';

export interface StreamFold {
  streams: string[];
  counts: number[];
  lastTypes: string[];
  lastRevisions: string[];
}

export function foldPerStream(
  events: ReadonlyArray<Pick<RecordedEvent, 'streamId' | 'type' | 'revision'>>,
): StreamFold {
  const byStream = new Map<string, { count: number; lastType: string; lastRevision: bigint }>();
  for (const event of events) {
    const row = byStream.get(event.streamId);
    if (row) {
      row.count += 1;
      row.lastType = event.type;
      row.lastRevision = event.revision;
    } else byStream.set(event.streamId, { count: 1, lastType: event.type, lastRevision: event.revision });
  }
  const fold: StreamFold = { streams: [], counts: [], lastTypes: [], lastRevisions: [] };
  for (const [stream, row] of byStream) {
    fold.streams.push(stream);
    fold.counts.push(row.count);
    fold.lastTypes.push(row.lastType);
    fold.lastRevisions.push(row.lastRevision.toString());
  }
  return fold;
}

export const STREAM_SUMMARY_DDL = `CREATE TABLE IF NOT EXISTS ${STREAM_SUMMARY_TABLE} (
  stream_id text PRIMARY KEY, events int NOT NULL, last_type text NOT NULL, last_revision bigint NOT NULL)`;

export const STREAM_SUMMARY_UPSERT = `
INSERT INTO ${STREAM_SUMMARY_TABLE} AS s (stream_id, events, last_type, last_revision)
SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::bigint[])
ON CONFLICT (stream_id) DO UPDATE SET events = s.events + EXCLUDED.events, last_type = EXCLUDED.last_type,
  last_revision = EXCLUDED.last_revision
WHERE s.last_revision < EXCLUDED.last_revision`;

export const upsertFold = (tx: SqlQueryable, fold: StreamFold) =>
  tx.query(STREAM_SUMMARY_UPSERT, [fold.streams, fold.counts, fold.lastTypes, fold.lastRevisions]);

export const streamSummaryProjection: Projection = {
  name: 'bench-stream-summary',
  version: 1,
  async setup(tx) {
    await tx.exec(STREAM_SUMMARY_DDL);
  },
  async reset(tx) {
    await tx.query(`DELETE FROM ${STREAM_SUMMARY_TABLE}`);
  },
  async apply(tx, events) {
    await upsertFold(tx, foldPerStream(events));
  },
  async countRecords(q) {
    const { rows } = await q.query<{ count: string }>(
      `SELECT count(*)::text AS count FROM ${STREAM_SUMMARY_TABLE}`,
    );
    return Number(rows[0]!.count);
  },
};

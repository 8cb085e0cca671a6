import type { Pool } from 'pg';
import { STREAM_SUMMARY_DDL, STREAM_SUMMARY_UPSERT, foldPerStream } from './stream-summary-projection';

/**
 * The raw read-fold-upsert loop of performance-anchors §2.2, on the same events and the same
 * table shape: a keyset read of a page of 1,000 rows (parsed into objects in Node), a fold per
 * stream, then one multi-row upsert and a checkpoint update in one transaction.
 */
export async function rawRebuildLoop(pool: Pool): Promise<{ events: number; seconds: number }> {
  await pool.query('DROP SCHEMA IF EXISTS bench_raw CASCADE; CREATE SCHEMA bench_raw');
  const client = await pool.connect();
  const started = performance.now();
  let events = 0;
  try {
    await client.query('SET search_path = bench_raw, public');
    await client.query(STREAM_SUMMARY_DDL);
    await client.query('CREATE TABLE bench_raw.checkpoint (position bigint NOT NULL)');
    await client.query('INSERT INTO bench_raw.checkpoint VALUES (0)');
    let after = '0';
    for (;;) {
      const { rows } = await client.query<{ gp: string; stream_id: string; rev: string; event_type: string }>(
        `SELECT global_position::text AS gp, stream_id, stream_revision::text AS rev, event_type, data, metadata,
                recorded_at
         FROM public.sy_events WHERE global_position > $1::bigint ORDER BY global_position LIMIT 1000`,
        [after],
      );
      if (rows.length === 0) break;
      const fold = foldPerStream(
        rows.map((row) => ({ streamId: row.stream_id, type: row.event_type, revision: BigInt(row.rev) })),
      );
      after = rows[rows.length - 1]!.gp;
      await client.query('BEGIN');
      await client.query(STREAM_SUMMARY_UPSERT, [
        fold.streams,
        fold.counts,
        fold.lastTypes,
        fold.lastRevisions,
      ]);
      await client.query('UPDATE bench_raw.checkpoint SET position = $1', [after]);
      await client.query('COMMIT');
      events += rows.length;
    }
  } finally {
    client.release();
  }
  return { events, seconds: (performance.now() - started) / 1000 };
}

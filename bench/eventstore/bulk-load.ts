import type { SqlExecutor } from '@switchyard/sql';

export interface BulkFeed {
  events: number;
  /** Event i goes to stream `${streamPrefix}${i % streams}` at revision floor(i / streams). */
  streamPrefix: string;
  streams: number;
  /** The type of event i; SQL over the 0-based integer `i`. */
  typeSql: string;
  /** Its data, a jsonb expression over `i` (the default is a merge-queue-sized object). */
  dataSql?: string;
}

const CHUNK = 50_000;
const QUEUE_EVENT_DATA = `jsonb_build_object('repository', 'acme/widgets', 'branch', 'main',
  'pullRequest', 1000 + i % 997, 'headSha', rpad(md5(i::text), 40, '0'), 'priority', 'medium')`;

/**
 * Writes a feed straight into sy_events with INSERT … SELECT (a minute of appends becomes seconds),
 * one transaction per chunk, so the rows carry several transaction ids as appended ones would.
 * Same row shape as appendToStream writes; stream rows end at the revision of their last event.
 */
export async function bulkLoadEvents(executor: SqlExecutor, feed: BulkFeed): Promise<void> {
  const { events, streamPrefix, streams } = feed;
  await executor.query(
    `INSERT INTO sy_streams (stream_id, revision)
     SELECT $1 || s, ($2::bigint - 1 - s) / $3 FROM generate_series(0, least($3, $2::bigint) - 1) AS s`,
    [streamPrefix, events, streams],
  );
  for (let from = 0; from < events; from += CHUNK) {
    await executor.query(
      `INSERT INTO sy_events (stream_id, stream_revision, event_id, event_type, schema_version, data, metadata)
       SELECT $1 || (i % $2), i / $2, gen_random_uuid(), ${feed.typeSql}, 1, ${feed.dataSql ?? QUEUE_EVENT_DATA},
              jsonb_build_object('correlationId', gen_random_uuid(), 'actor', 'bench')
       FROM generate_series($3::bigint, $4::bigint) AS i`,
      [streamPrefix, streams, from, Math.min(from + CHUNK, events) - 1],
    );
  }
  await executor.exec('ANALYZE sy_events');
}

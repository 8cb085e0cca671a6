import type { RecordedEvent } from '@switchyard/event-store';
import type { DequeueReason } from '@switchyard/kernel';
import type { Projection } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import type { MergeQueueEvent } from '../domain/events';
import { QUEUE_FACT_EVENT_TYPES, queueFactOf, type BatchOutcome, type QueueFact } from './queue-facts';

export const QUEUE_FACTS_TABLE = 'merge_queue_statistics_facts';

/**
 * The facts queue statistics are computed from: one row per merge, checks started, dequeue and
 * batch outcome, keyed by the event that said it (a replay writes nothing twice). A window's
 * statistics are read from these rows, so any window can be asked for without a replay.
 */
export const queueStatisticsProjection: Projection = {
  name: 'merge_queue.statistics',
  version: 1,
  eventTypes: QUEUE_FACT_EVENT_TYPES,

  async setup(tx) {
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${QUEUE_FACTS_TABLE} (
        stream_id text NOT NULL,
        revision bigint NOT NULL,
        repository_key text NOT NULL,
        base_ref text NOT NULL,
        at bigint NOT NULL,
        kind text NOT NULL,
        detail text,
        seconds double precision,
        PRIMARY KEY (stream_id, revision)
      );
      CREATE INDEX IF NOT EXISTS ${QUEUE_FACTS_TABLE}_window ON ${QUEUE_FACTS_TABLE} (repository_key, at);
    `);
  },

  async reset(tx) {
    await tx.exec(`DELETE FROM ${QUEUE_FACTS_TABLE};`);
  },

  async apply(tx, events) {
    const rows = events.flatMap(rowOf);
    if (rows.length === 0) return;
    const column = <K extends keyof FactRow>(key: K) => rows.map((row) => row[key]);
    await tx.query(
      `INSERT INTO ${QUEUE_FACTS_TABLE} (stream_id, revision, repository_key, base_ref, at, kind, detail, seconds)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::float8[])
       ON CONFLICT DO NOTHING`,
      [
        column('streamId'),
        column('revision'),
        column('repositoryKey'),
        column('baseRef'),
        column('at'),
        column('kind'),
        column('detail'),
        column('seconds'),
      ],
    );
  },

  async countRecords(q) {
    const { rows } = await q.query<{ count: string | number }>(
      `SELECT count(*) AS count FROM ${QUEUE_FACTS_TABLE}`,
    );
    return Number(rows[0]?.count ?? 0);
  },
};

interface FactRow {
  streamId: string;
  revision: string;
  repositoryKey: string;
  baseRef: string;
  at: number;
  kind: QueueFact['kind'];
  detail: string | null;
  seconds: number | null;
}

function rowOf(event: RecordedEvent): FactRow[] {
  const fact = queueFactOf(event as unknown as MergeQueueEvent);
  if (fact === null) return [];
  const data = event.data as { repository: string; baseRef: string };
  return [
    {
      streamId: event.streamId,
      revision: event.revision.toString(),
      repositoryKey: data.repository.toLowerCase(),
      baseRef: data.baseRef,
      at: fact.at,
      kind: fact.kind,
      detail: fact.kind === 'dequeued' ? fact.reason : fact.kind === 'batch' ? fact.outcome : null,
      seconds: fact.kind === 'merged' ? fact.secondsToMerge : null,
    },
  ];
}

type StoredFact = { kind: string; at: string | number; detail: string | null; seconds: number | null };

const factOf = (row: StoredFact): QueueFact => {
  const at = Number(row.at);
  if (row.kind === 'merged') return { kind: 'merged', at, secondsToMerge: Number(row.seconds) };
  if (row.kind === 'dequeued') return { kind: 'dequeued', at, reason: row.detail as DequeueReason };
  if (row.kind === 'batch') return { kind: 'batch', at, outcome: row.detail as BatchOutcome };
  return { kind: 'checks_started', at };
};

/** The facts of a repository's queues (one base branch's, when given) in [since, until). */
export async function queueFactsIn(
  sql: SqlQueryable,
  repository: string,
  baseRef: string | undefined,
  window: { since: number; until: number },
): Promise<QueueFact[]> {
  const { rows } = await sql.query<StoredFact>(
    `SELECT kind, at, detail, seconds FROM ${QUEUE_FACTS_TABLE}
     WHERE repository_key = $1 AND at >= $2 AND at < $3 AND ($4::text IS NULL OR base_ref = $4)`,
    [repository.toLowerCase(), window.since, window.until, baseRef ?? null],
  );
  return rows.map(factOf);
}

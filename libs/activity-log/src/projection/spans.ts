/**
 * Per pull request (and per batch pull request): how many log records it has, and the first and
 * last received_at among them. They answer "the top 200 pull requests of a long window" without
 * counting every pull request in it (~125,000 over 30 days in a busy repository):
 *  - a pull request whose whole span lies inside the window has all its records there, so the
 *    top 200 of those is an index walk in count order that stops after 200 hits;
 *  - the few whose span crosses an end of the window (found through a GiST index on the span) are
 *    counted exactly from the log rows;
 *  - no pull request outside both groups has a record in the window, and none inside the first
 *    group but beyond its top 200 can outrank it; so the merged top 200 is exact.
 */
export interface Span {
  table: string;
  /** The number column, as the facet reports it. */
  column: 'pull_request' | 'batch_pull_request';
}

export const PULL_SPANS: Span = { table: 'sy_activity_log_pull_spans', column: 'pull_request' };
export const BATCH_SPANS: Span = { table: 'sy_activity_log_batch_pull_spans', column: 'batch_pull_request' };
export const SPANS: readonly Span[] = [PULL_SPANS, BATCH_SPANS];

/** The range expression of the GiST index; queries must spell it the same way. */
export const SPAN_RANGE = `tstzrange(first_at, last_at, '[]')`;

export const spanTableDdl = ({ table, column }: Span): string => `
CREATE TABLE IF NOT EXISTS ${table} (
  repository text NOT NULL,
  ${column} bigint NOT NULL,
  count integer NOT NULL,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  PRIMARY KEY (repository, ${column})
);`;

export const spanIndexDdl = ({ table, column }: Span): string => `
CREATE INDEX IF NOT EXISTS ${table}_by_count ON ${table} (repository, count DESC, ${column}) INCLUDE (first_at, last_at);
CREATE INDEX IF NOT EXISTS ${table}_by_range ON ${table} USING gist (${SPAN_RANGE});`;

const SOURCES: Record<Span['column'], { number: string; from: string; where: string }> = {
  pull_request: { number: 'pull_request', from: 'inserted', where: 'WHERE pull_request IS NOT NULL' },
  batch_pull_request: {
    number: 'batch.number',
    from: 'inserted CROSS JOIN LATERAL unnest(inserted.batch_pull_requests) AS batch(number)',
    where: '',
  },
};

/** Widens the spans of the numbers a statement inserted records for (CTE `inserted`). */
export function spanUpsert({ table, column }: Span): string {
  const source = SOURCES[column];
  return `INSERT INTO ${table} AS s (repository, ${column}, count, first_at, last_at)
  SELECT repository, ${source.number}, count(*), min(received_at), max(received_at)
  FROM ${source.from} ${source.where}
  GROUP BY 1, 2
  ON CONFLICT (repository, ${column}) DO UPDATE SET count = s.count + excluded.count,
    first_at = least(s.first_at, excluded.first_at), last_at = greatest(s.last_at, excluded.last_at)`;
}

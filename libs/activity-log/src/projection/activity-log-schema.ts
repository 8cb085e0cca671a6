import { ROLLUPS, rollupDdl } from './rollups';
import { SPANS, spanIndexDdl, spanTableDdl } from './spans';

/**
 * The activity-log read model.
 *
 * sy_activity_log holds one row per log record. Every query is scoped to one repository and a
 * received_at window, pages newest first by (received_at, id) with a keyset, and never uses OFFSET:
 *  - by_time (repository, received_at, id): the unfiltered page and every filter without a better
 *    index. Scanned backwards it yields the page order directly, so a first page reads per_page + 1
 *    index entries whatever the window; it also serves the ragged ends of rollup-backed aggregates.
 *  - by_pull (repository, pull_request, received_at, id), partial on pull_request: "what happened
 *    to my PR" reads only that PR's rows, already in page order for one PR.
 *  - by_type (repository, type, received_at, id): event_type filters on rare types (leave, merged)
 *    would otherwise walk a whole window of queue-size and checks-change noise.
 *  - by_batch_pull, GIN over batch_pull_requests, partial on non-empty arrays: batch_pull matches a
 *    number inside the array; only checks start/end and bisection rows are indexed.
 *  - source (event_position, ordinal), a unique index: apply is idempotent (a replayed event adds nothing).
 *    Positions grow with the feed, so this index is appended to at its right edge, where a random
 *    event id would touch a random page of a large index for every record.
 * Ordering by received_at (not id) lets a window anywhere in the 93 days be a single index range;
 * ids stay strictly increasing in feed order, and (received_at, id) is unique, so keyset pages
 * never repeat or skip a record.
 * metadata is json, not jsonb: it is only ever returned whole, never searched, and json keeps the
 * text as written, which spares the projection jsonb's conversion.
 *
 * The rollups (rollups.ts) and spans (spans.ts) are maintained in the same statement as the rows,
 * so they never disagree with them.
 */
export const ACTIVITY_LOG_TABLES = [
  'sy_activity_log',
  ...ROLLUPS.map((rollup) => rollup.table),
  ...SPANS.map((span) => span.table),
] as const;

/** The tables with their primary keys: what a rebuild's bulk load fills before any other index. */
export const ACTIVITY_LOG_TABLES_DDL = `
CREATE TABLE IF NOT EXISTS sy_activity_log (
  id bigint PRIMARY KEY,
  event_position text NOT NULL,
  ordinal integer NOT NULL,
  repository text NOT NULL,
  received_at timestamptz NOT NULL,
  type text NOT NULL,
  outcome text NOT NULL,
  trigger text NOT NULL,
  pull_request bigint,
  base_ref text,
  batch_pull_requests bigint[] NOT NULL DEFAULT '{}',
  metadata json NOT NULL
);
${ROLLUPS.map(rollupDdl).join('\n')}
${SPANS.map(spanTableDdl).join('\n')}
`;

/**
 * Every other index, built after a bulk load rather than maintained during it, with the table each
 * belongs to (a rebuild builds them per table, several tables at once).
 */
export const ACTIVITY_LOG_INDEXES: ReadonlyArray<{ table: string; ddl: string }> = [
  {
    table: 'sy_activity_log',
    ddl: 'CREATE UNIQUE INDEX IF NOT EXISTS sy_activity_log_source ON sy_activity_log (event_position, ordinal);',
  },
  {
    table: 'sy_activity_log',
    ddl: 'CREATE INDEX IF NOT EXISTS sy_activity_log_by_time ON sy_activity_log (repository, received_at, id);',
  },
  {
    table: 'sy_activity_log',
    ddl: `CREATE INDEX IF NOT EXISTS sy_activity_log_by_pull ON sy_activity_log (repository, pull_request, received_at, id)
  WHERE pull_request IS NOT NULL;`,
  },
  {
    table: 'sy_activity_log',
    ddl: 'CREATE INDEX IF NOT EXISTS sy_activity_log_by_type ON sy_activity_log (repository, type, received_at, id);',
  },
  {
    table: 'sy_activity_log',
    ddl: `CREATE INDEX IF NOT EXISTS sy_activity_log_by_batch_pull ON sy_activity_log USING gin (batch_pull_requests)
  WHERE batch_pull_requests <> '{}';`,
  },
  ...SPANS.map((span) => ({ table: span.table, ddl: spanIndexDdl(span) })),
];

export const ACTIVITY_LOG_INDEXES_DDL = ACTIVITY_LOG_INDEXES.map((index) => index.ddl).join('\n');

export const ACTIVITY_LOG_SCHEMA = ACTIVITY_LOG_TABLES_DDL + ACTIVITY_LOG_INDEXES_DDL;

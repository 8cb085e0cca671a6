import { copyField, copyIntArray, type SqlQueryable } from '@switchyard/sql';
import type { LogRecordRow } from './log-record-rows';
import { ROLLUPS, rollupUpsert } from './rollups';
import { SPANS, spanUpsert } from './spans';

/**
 * Inserts the records and bumps every rollup in one statement.
 *  - The records travel as one JSON document: cheaper in Node than a dozen parameter arrays, whose
 *    text encoding escapes every quote of every metadata object.
 *  - Ids continue from the largest id in the table, in feed order, and only records not already
 *    stored take one: replaying events leaves no gap, and a rebuild (empty table, same feed order)
 *    gives every record the id it had.
 *  - Rollups and spans count only the rows this statement inserted (RETURNING), so a replay
 *    cannot count a record twice.
 */
const UPSERTS = [...ROLLUPS.map(rollupUpsert), ...SPANS.map(spanUpsert)];

/** The records of one statement, from the JSON document toRecordDocument builds, in feed order. */
const INPUT = `input AS (
  SELECT *
  FROM ROWS FROM (
         json_to_recordset($1::json) AS (event_position text, ordinal int, repository text, received_at timestamptz,
                                         type text, outcome text, trigger text, pull_request bigint,
                                         base_ref text, batch_pull_requests bigint[], metadata json)
       ) WITH ORDINALITY AS t(event_position, ordinal, repository, received_at, type, outcome, trigger,
                              pull_request, base_ref, batch_pull_requests, metadata, feed_order)
)`;

const INSERT_RECORDS = `
WITH ${INPUT},
fresh AS (
  SELECT input.*,
         (SELECT coalesce(max(id), 0) FROM sy_activity_log) + row_number() OVER (ORDER BY feed_order) AS id
  FROM input
  WHERE NOT EXISTS (
    SELECT 1 FROM sy_activity_log l WHERE l.event_position = input.event_position AND l.ordinal = input.ordinal
  )
),
inserted AS (
  INSERT INTO sy_activity_log (id, event_position, ordinal, repository, received_at, type, outcome, trigger,
                               pull_request, base_ref, batch_pull_requests, metadata)
  SELECT id, event_position, ordinal, repository, received_at, type, outcome, trigger,
         pull_request, base_ref, batch_pull_requests, metadata
  FROM fresh
  ORDER BY id
  ON CONFLICT (event_position, ordinal) DO NOTHING
  RETURNING repository, received_at, type, outcome, trigger, pull_request, base_ref, batch_pull_requests
),
${UPSERTS.slice(0, -1)
  .map((upsert, index) => `upsert_${index} AS (\n  ${upsert}\n)`)
  .join(',\n')}
${UPSERTS[UPSERTS.length - 1]!}
`;

export async function writeLogRecords(tx: SqlQueryable, rows: readonly LogRecordRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(INSERT_RECORDS, [toRecordDocument(rows)]);
}

/** The record table's columns, in the order logRecordCopyText writes them. */
export const LOG_RECORD_COLUMNS = [
  'id',
  'event_position',
  'ordinal',
  'repository',
  'received_at',
  'type',
  'outcome',
  'trigger',
  'pull_request',
  'base_ref',
  'batch_pull_requests',
  'metadata',
] as const;

/**
 * The records as COPY rows (a rebuild's bulk load), ids from firstId on in feed order: the same
 * values writeLogRecords stores, metadata as the same JSON text. JSON.stringify escapes every
 * control character, so of COPY's special characters only the backslash can occur in it.
 */
export function logRecordCopyText(rows: readonly LogRecordRow[], firstId: number): string {
  let text = '';
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index]!;
    const metadata = JSON.stringify(row.metadata);
    text +=
      `${firstId + index}\t${copyField(row.eventPosition)}\t${row.ordinal}\t${copyField(row.repository)}\t` +
      `${row.receivedAt.toISOString()}\t${copyField(row.type)}\t${copyField(row.outcome)}\t` +
      `${copyField(row.trigger)}\t${copyField(row.pullRequest)}\t${copyField(row.baseRef)}\t` +
      `${copyIntArray(row.batchPullRequests)}\t${metadata.includes('\\') ? metadata.replaceAll('\\', '\\\\') : metadata}\n`;
  }
  return text;
}

const toRecordDocument = (rows: readonly LogRecordRow[]): string =>
  JSON.stringify(
    rows.map((row) => ({
      event_position: row.eventPosition,
      ordinal: row.ordinal,
      repository: row.repository,
      received_at: row.receivedAt.toISOString(),
      type: row.type,
      outcome: row.outcome,
      trigger: row.trigger,
      pull_request: row.pullRequest,
      base_ref: row.baseRef,
      batch_pull_requests: row.batchPullRequests,
      metadata: row.metadata,
    })),
  );

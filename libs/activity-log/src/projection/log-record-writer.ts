import type { SqlQueryable } from '@switchyard/event-store';
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

const INSERT_RECORDS = `
WITH input AS (
  SELECT *
  FROM ROWS FROM (
         json_to_recordset($1::json) AS (event_position text, ordinal int, repository text, received_at timestamptz,
                                         type text, outcome text, trigger text, pull_request bigint,
                                         base_ref text, batch_pull_requests bigint[], metadata json)
       ) WITH ORDINALITY AS t(event_position, ordinal, repository, received_at, type, outcome, trigger,
                              pull_request, base_ref, batch_pull_requests, metadata, feed_order)
),
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
  const document = rows.map((row) => ({
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
  }));
  await tx.query(INSERT_RECORDS, [JSON.stringify(document)]);
}

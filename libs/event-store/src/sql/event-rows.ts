import { encodeSqlPosition } from '../position';
import type { RecordedEvent } from '../types';
import type { EventSchemas } from '../upcasting';

/**
 * An sy_events row as selected with EVENT_COLUMNS: big numbers as text so nothing loses precision.
 * The text aliases shadow the column names, so a query selecting EVENT_COLUMNS must ORDER BY the
 * qualified columns (sy_events.transaction_id): a bare name would sort by the text, where '999' > '1000'.
 */
export interface EventRow {
  stream_id: string;
  stream_revision: string;
  transaction_id: string;
  global_position: string;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: object;
  metadata: Record<string, unknown>;
  recorded_at: Date | string;
}

export const EVENT_COLUMNS = eventColumns();

/**
 * EVENT_COLUMNS, or with `heldIds` (the placeholder of a uuid[] parameter) the same columns with
 * `data` and `metadata` NULL for those events: the reader holds them already (RecentAppends).
 */
export function eventColumns(heldIds?: string): string {
  const unlessHeld = (column: string) =>
    heldIds
      ? `CASE WHEN event_id = ANY(${heldIds}::uuid[]) THEN NULL ELSE ${column} END AS ${column}`
      : column;
  return `stream_id, stream_revision::text AS stream_revision, transaction_id::text AS transaction_id,
  global_position::text AS global_position, event_id::text AS event_id, event_type, schema_version,
  ${unlessHeld('data')}, ${unlessHeld('metadata')}, recorded_at`;
}

/** Upcasting happens here, so nothing above the adapter ever sees an old schema version. */
export const toRecordedEvent = (row: EventRow, schemas: EventSchemas): RecordedEvent =>
  schemas.upcast({
    streamId: row.stream_id,
    revision: BigInt(row.stream_revision),
    position: encodeSqlPosition(row.transaction_id, row.global_position),
    eventId: row.event_id,
    type: row.event_type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
  });

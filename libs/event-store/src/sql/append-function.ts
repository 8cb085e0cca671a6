import type { ExpectedRevision } from '../types';
import { type SqlQueryable, textArray } from '@switchyard/sql';

/**
 * First key of the two-key advisory lock space used for streams. The two-int4 form of
 * pg_advisory_xact_lock is a key space of its own, so stream locks never collide with the
 * single-bigint advisory locks used elsewhere (schema setup, projection runners).
 */
export const STREAM_LOCK_SPACE = 21337;
export const STREAM_LOCK_STATEMENT = `PERFORM pg_advisory_xact_lock(${STREAM_LOCK_SPACE}, hashtext(p_stream_id))`;

/**
 * The append, as one function called in one autocommitted statement: a single round trip instead
 * of five (BEGIN, lock, stream row, events, COMMIT). In a volatile PL/pgSQL function each
 * statement takes a fresh snapshot, so the statements after the lock see what the previous writer
 * committed.
 *
 * The stream lock is the function's first statement (architecture-anchors §2.3), and it is an
 * advisory transaction lock keyed on the stream, not the stream row: taking and waiting for it
 * assigns no transaction id, so a writer gets its id (at its first write, the stream row) only
 * after the previous writer of the stream has committed. Its id is then larger, and the
 * (transaction_id, global_position) feed keeps each stream in revision order. A row lock alone does
 * not guarantee this, as the contract suite showed on PostgreSQL: a conditional UPDATE takes its id
 * before it waits, and once a SELECT ... FOR UPDATE holder commits, every waiter follows the update
 * chain with GetCurrentTransactionId() at once, so with three or more writers on a stream the ids
 * come out in one order and the rows in another. Under the advisory lock the row statements never
 * wait. Hash collisions between stream names only make two streams share a lock.
 *
 * The same lock tells readers who is appending (settled-horizon.ts): a transaction that holds none
 * does not hold the feed back. Hence the first check, which refuses an append in a transaction
 * that already has an id without holding a stream lock (an append after another write).
 *
 * Returns one row: ('appended', new revision, transaction id, last global position), or
 * ('conflict', actual revision, null, null) when the expected revision does not hold.
 */
export const APPEND_FUNCTION = `
CREATE OR REPLACE FUNCTION sy_append(
  p_stream_id text,
  p_expected text,
  p_event_ids text[],
  p_event_types text[],
  p_schema_versions integer[],
  p_data text[],
  p_metadata text[])
RETURNS TABLE (r_outcome text, r_revision text, r_transaction_id text, r_global_position text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_count bigint := cardinality(p_event_ids);
  v_revision bigint;
  v_payload text;
BEGIN
  -- The settled horizon (settled-horizon.ts) tells appenders from bystanders by this lock, so it
  -- must be held from before the transaction has an id: refuse an append after another write.
  -- Two IFs: the outer one is a simple expression, which PL/pgSQL evaluates without the executor.
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    IF NOT EXISTS (
        SELECT FROM pg_locks AS l
        WHERE l.pid = pg_backend_pid() AND l.locktype = 'advisory' AND l.classid = ${STREAM_LOCK_SPACE}
          AND l.objsubid = 2 AND l.granted) THEN
      RAISE EXCEPTION 'sy_append must come before any other write of its transaction'
        USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
  END IF;
  ${STREAM_LOCK_STATEMENT};
  IF p_expected = 'no_stream' THEN
    INSERT INTO sy_streams AS s (stream_id, revision) VALUES (p_stream_id, v_count - 1)
    ON CONFLICT (stream_id) DO NOTHING
    RETURNING s.revision INTO v_revision;
  ELSIF p_expected = 'stream_exists' THEN
    UPDATE sy_streams AS s SET revision = s.revision + v_count, updated_at = now()
    WHERE s.stream_id = p_stream_id
    RETURNING s.revision INTO v_revision;
  ELSIF p_expected = 'any' THEN
    INSERT INTO sy_streams AS s (stream_id, revision) VALUES (p_stream_id, v_count - 1)
    ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + v_count, updated_at = now()
    RETURNING s.revision INTO v_revision;
  ELSE
    UPDATE sy_streams AS s SET revision = s.revision + v_count, updated_at = now()
    WHERE s.stream_id = p_stream_id AND s.revision = p_expected::bigint
    RETURNING s.revision INTO v_revision;
  END IF;

  IF v_revision IS NULL THEN
    SELECT s.revision INTO v_revision FROM sy_streams AS s WHERE s.stream_id = p_stream_id;
    RETURN QUERY SELECT 'conflict'::text, coalesce(v_revision, -1)::text, NULL::text, NULL::text;
    RETURN;
  END IF;

  RETURN QUERY
  WITH inserted AS (
    INSERT INTO sy_events AS e (stream_id, stream_revision, event_id, event_type, schema_version, data, metadata)
    SELECT p_stream_id, v_revision - v_count + t.ord, t.event_id::uuid, t.event_type, t.schema_version,
           t.data::jsonb, t.metadata::jsonb
    FROM unnest(p_event_ids, p_event_types, p_schema_versions, p_data, p_metadata)
         WITH ORDINALITY AS t(event_id, event_type, schema_version, data, metadata, ord)
    ORDER BY t.ord
    RETURNING e.transaction_id, e.global_position)
  SELECT 'appended'::text, v_revision::text, i.transaction_id::text, max(i.global_position)::text
  FROM inserted AS i GROUP BY i.transaction_id;
  -- Delivered on commit only, so a woken poller finds the events settled or about to be. The
  -- payload says which types were stored and where (the transaction id and the last global
  -- position this session drew), so that only the readers of those types wake (wake-hint.ts).
  v_payload := json_build_object(
    'x', pg_current_xact_id()::text,
    'g', currval('sy_events_global_position')::text,
    't', ARRAY(SELECT DISTINCT t.type FROM unnest(p_event_types) AS t(type)))::text;
  -- NOTIFY payloads are limited to 8000 bytes; an empty one wakes every reader.
  PERFORM pg_notify('sy_events', CASE WHEN octet_length(v_payload) < 7900 THEN v_payload ELSE '' END);
END
$$;
`;

/** An event to append, its data and metadata already serialised (RecentAppends keeps that JSON). */
export interface AppendEvent {
  eventId: string;
  type: string;
  schemaVersion: number;
  dataJson: string;
  metadataJson: string;
}

export type AppendOutcome =
  | { kind: 'appended'; revision: bigint; transactionId: string; globalPosition: string }
  | { kind: 'conflict'; actual: bigint };

interface AppendRow {
  r_outcome: 'appended' | 'conflict';
  r_revision: string;
  r_transaction_id: string | null;
  r_global_position: string | null;
}

export async function callAppend(
  queryable: SqlQueryable,
  streamId: string,
  expected: ExpectedRevision,
  events: readonly AppendEvent[],
): Promise<AppendOutcome> {
  const { rows } = await queryable.query<AppendRow>(
    `SELECT r_outcome, r_revision, r_transaction_id, r_global_position
     FROM sy_append($1, $2, $3::text[], $4::text[], $5::int[], $6::text[], $7::text[])`,
    [
      streamId,
      expected.toString(),
      events.map((e) => e.eventId),
      events.map((e) => e.type),
      events.map((e) => e.schemaVersion),
      // Binary: the JSON goes as it is, not escaped into an array literal.
      textArray(events.map((e) => e.dataJson)),
      textArray(events.map((e) => e.metadataJson)),
    ],
    { prepared: true },
  );
  const row = rows[0]!;
  if (row.r_outcome === 'conflict') return { kind: 'conflict', actual: BigInt(row.r_revision) };
  return {
    kind: 'appended',
    revision: BigInt(row.r_revision),
    transactionId: row.r_transaction_id!,
    globalPosition: row.r_global_position!,
  };
}

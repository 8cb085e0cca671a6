import type { SqlQueryable } from '@switchyard/sql';

const TABLE = `
CREATE TABLE IF NOT EXISTS sy_projection_checkpoints (
  name       text PRIMARY KEY,
  version    int NOT NULL,
  position   text NOT NULL,
  updated_at timestamptz,
  failure    text
);
ALTER TABLE sy_projection_checkpoints ADD COLUMN IF NOT EXISTS failure text;
ALTER TABLE sy_projection_checkpoints ADD COLUMN IF NOT EXISTS heartbeat_at timestamptz;
ALTER TABLE sy_projection_checkpoints ADD COLUMN IF NOT EXISTS last_error text;
CREATE TABLE IF NOT EXISTS sy_parked_events (
  id                  bigserial PRIMARY KEY,
  processor           text NOT NULL,
  position            text NOT NULL,
  event_id            text NOT NULL,
  event_type          text NOT NULL,
  stream_id           text NOT NULL,
  revision            text NOT NULL,
  error               text NOT NULL,
  attempts            int NOT NULL,
  parked_at           timestamptz NOT NULL DEFAULT now(),
  replay_requested_at timestamptz,
  replayed_at         timestamptz,
  last_replay_error   text,
  UNIQUE (processor, position)
);
`;

/**
 * Creates the checkpoint table (with each running processor's heartbeat and the failure it is
 * retrying, for /readyz in every process) and the parked external facts, when missing. Several processes may start at once, and concurrent
 * CREATE TABLE IF NOT EXISTS can still collide in the catalog, hence the transaction-scoped lock.
 */
export async function ensureCheckpointTable(tx: SqlQueryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('sy_projection_checkpoints'))`);
  await tx.exec(TABLE);
}

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
`;

/**
 * Creates the checkpoint table when missing. Several processes may start at once, and concurrent
 * CREATE TABLE IF NOT EXISTS can still collide in the catalog, hence the transaction-scoped lock.
 */
export async function ensureCheckpointTable(tx: SqlQueryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('sy_projection_checkpoints'))`);
  await tx.exec(TABLE);
}

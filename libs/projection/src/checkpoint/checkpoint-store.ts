import type { Position } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import { CheckpointConflictError } from './checkpoint-conflict-error';

/**
 * Where a projection's read model stands. Always written in the same transaction as the rows it
 * describes, so rows and checkpoint agree after any crash (architecture-anchors §2.4).
 */
export interface Checkpoint {
  name: string;
  version: number;
  position: Position | 'start';
  /**
   * Why the processor stopped for good (the event it could not handle), null while it runs. Kept
   * here so that processes that do not run it (the api) refuse the writes that wait for it.
   */
  failure: string | null;
}

interface CheckpointRow {
  name: string;
  version: number;
  position: string;
  failure: string | null;
}

const COLUMNS = 'name, version, position, failure';

const toCheckpoint = (row: CheckpointRow): Checkpoint => ({
  name: row.name,
  version: Number(row.version),
  position: row.position,
  failure: row.failure,
});

export async function readCheckpoint(q: SqlQueryable, name: string): Promise<Checkpoint | null> {
  const { rows } = await q.query<CheckpointRow>(
    `SELECT ${COLUMNS} FROM sy_projection_checkpoints WHERE name = $1`,
    [name],
  );
  return rows[0] ? toCheckpoint(rows[0]) : null;
}

export async function readCheckpoints(
  q: SqlQueryable,
  names: readonly string[],
): Promise<Map<string, Checkpoint>> {
  const { rows } = await q.query<CheckpointRow>(
    `SELECT ${COLUMNS} FROM sy_projection_checkpoints WHERE name = ANY($1::text[])`,
    [names],
  );
  return new Map(rows.map((row) => [row.name, toCheckpoint(row)]));
}

/** Puts the projection back at the start under the given version (with the rows reset in the same transaction). */
export async function resetCheckpoint(tx: SqlQueryable, name: string, version: number): Promise<void> {
  await tx.query(
    `INSERT INTO sy_projection_checkpoints (name, version, position, updated_at) VALUES ($1, $2, 'start', now())
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, position = 'start', updated_at = now(),
       failure = NULL`,
    [name, version],
  );
}

/** Inserts the checkpoint at `initial` (the start by default) unless it exists; returns where it stands. */
export async function ensureCheckpoint(
  tx: SqlQueryable,
  name: string,
  version: number,
  initial: Position | 'start' = 'start',
): Promise<Checkpoint> {
  await tx.query(
    `INSERT INTO sy_projection_checkpoints (name, version, position, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (name) DO NOTHING`,
    [name, version, initial],
  );
  return (await readCheckpoint(tx, name))!;
}

/** Marks the processor as stopped for good; the next checkpoint it moves clears it. */
export async function recordCheckpointFailure(q: SqlQueryable, name: string, failure: string): Promise<void> {
  await q.query(`UPDATE sy_projection_checkpoints SET failure = $2, updated_at = now() WHERE name = $1`, [
    name,
    failure,
  ]);
}

/** A checkpoint's move from `from` to `to`, under its processor's version. */
export interface CheckpointMove {
  name: string;
  version: number;
  from: Position | 'start';
  to: Position | 'start';
}

/**
 * Compare-and-set: moves the checkpoint from `from` to `to` only if it is still at `from` under the
 * same version (Marten's UpdateProjectionProgress). Throws CheckpointConflictError otherwise, which
 * rolls back the caller's transaction with the rows it wrote.
 */
export async function advanceCheckpoint(tx: SqlQueryable, move: CheckpointMove): Promise<void> {
  const { rowCount } = await tx.query(
    `UPDATE sy_projection_checkpoints SET position = $4, updated_at = now(), failure = NULL
     WHERE name = $1 AND version = $2 AND position = $3`,
    [move.name, move.version, move.from, move.to],
  );
  if (rowCount === 1) return;
  const actual = await readCheckpoint(tx, move.name);
  throw new CheckpointConflictError(
    move.name,
    { version: move.version, position: move.from },
    actual && { version: actual.version, position: actual.position },
  );
}

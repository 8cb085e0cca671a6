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
  /** When the process running it last said it was alive (null: never, or not since the column exists). */
  heartbeatAt: Date | null;
  /** The failure it was retrying at that heartbeat; null while its work succeeds. */
  lastError: string | null;
}

interface CheckpointRow {
  name: string;
  version: number;
  position: string;
  failure: string | null;
  heartbeat_at: Date | string | null;
  last_error: string | null;
}

const COLUMNS = 'name, version, position, failure, heartbeat_at, last_error';

const toCheckpoint = (row: CheckpointRow): Checkpoint => ({
  name: row.name,
  version: Number(row.version),
  position: row.position,
  failure: row.failure,
  heartbeatAt: row.heartbeat_at === null ? null : new Date(row.heartbeat_at),
  lastError: row.last_error,
});

/** One processor's sign of life: it runs here now, and what it is retrying, if anything. */
export interface Heartbeat {
  name: string;
  lastError: string | null;
}

/**
 * Records that these processors run in this process now (one statement for all of them), so that
 * processes that do not run them (the api) can tell a live processor from a dead one.
 */
export async function recordHeartbeats(q: SqlQueryable, beats: readonly Heartbeat[]): Promise<void> {
  if (beats.length === 0) return;
  await q.query(
    `UPDATE sy_projection_checkpoints c SET heartbeat_at = now(), last_error = b.last_error
     FROM unnest($1::text[], $2::text[]) AS b(name, last_error) WHERE c.name = b.name`,
    [beats.map((beat) => beat.name), beats.map((beat) => beat.lastError)],
  );
}

/** The database's own clock, which stamps the heartbeats: staleness is judged against it. */
export async function databaseNow(q: SqlQueryable): Promise<Date> {
  const { rows } = await q.query<{ now: Date | string }>('SELECT now() AS now');
  return new Date(rows[0]!.now);
}

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

/**
 * The lowest of the named checkpoints that exist, or null when none does: where a processor that
 * takes over the work of others (a reactor split into partitions) starts, so that it repeats
 * nothing the others have not finished, and reacts to no history they already reacted to.
 */
export async function lowestCheckpoint(
  q: SqlQueryable,
  names: readonly string[],
): Promise<Position | 'start' | null> {
  if (names.length === 0) return null;
  const found = [...(await readCheckpoints(q, names)).values()].map((checkpoint) => checkpoint.position);
  if (found.length === 0) return null;
  if (found.includes('start')) return 'start';
  return found.reduce((lowest, position) => (position < lowest ? position : lowest));
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

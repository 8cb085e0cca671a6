import type { SqlQueryable } from '@switchyard/sql';
import { withAsynchronousCommit } from './generation-schema';
import { readActiveGeneration, type Generation } from './generation-table';

/**
 * Locks the projection's checkpoint row, so that no blue-green switch is half-way (the switch
 * holds that lock) and none starts before the caller commits, then reads the generation serving.
 * The read is a statement of its own: under READ COMMITTED it then sees the switch committed last,
 * which a join in the locking statement would not.
 */
const lockCheckpointRow = (tx: SqlQueryable, name: string, mode: 'UPDATE' | 'SHARE' = 'UPDATE') =>
  tx.query(`SELECT 1 FROM sy_projection_checkpoints WHERE name = $1 FOR ${mode}`, [name]);

/** The generation serving a projection, stable until the caller's transaction ends. */
export async function lockActiveGeneration(tx: SqlQueryable, name: string): Promise<Generation | null> {
  await lockCheckpointRow(tx, name);
  return readActiveGeneration(tx, name);
}

/**
 * The first statements of every transaction that writes a projection's rows: locks its checkpoint
 * row, then points unqualified names at the generation serving now (its schema, then the live one)
 * for the rest of the transaction. Without a generation, names stay in the live schema, where
 * the tables built in place are. Two round trips, whatever the layout: this runs once per batch.
 * asynchronousCommit: see withAsynchronousCommit. shared: for concurrent writers of one batch
 * (lanes), which all keep a switch out but not each other, and leave the checkpoint to a later
 * statement.
 */
export async function enterActiveGeneration(
  tx: SqlQueryable,
  name: string,
  options: { asynchronousCommit?: boolean; shared?: boolean } = {},
): Promise<void> {
  await lockCheckpointRow(tx, name, options.shared ? 'SHARE' : 'UPDATE');
  const generation = `(SELECT set_config('search_path', quote_ident(schema) || ', ' || quote_ident(current_schema()), true)
     FROM sy_projection_generations WHERE name = $1)`;
  await tx.query(withAsynchronousCommit(`SELECT ${generation}`, options.asynchronousCommit), [name]);
}

import { createHash } from 'node:crypto';
import type { SqlQueryable } from '@switchyard/sql';

/** PostgreSQL's limit on identifiers; longer names are silently truncated, so we shorten them ourselves. */
const MAX_IDENTIFIER = 63;

export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** The schema readers resolve unqualified names in: where the views (or legacy tables) live. */
export async function liveSchema(q: SqlQueryable): Promise<string> {
  const { rows } = await q.query<{ schema: string }>('SELECT current_schema() AS schema');
  return rows[0]!.schema;
}

/**
 * `rm_<live schema>_<projection>_g`: every generation schema of a projection starts with it. The
 * live schema is part of the name because several live schemas share one database (one per test
 * suite); names too long for PostgreSQL keep a readable head and a hash of the whole.
 */
export function generationSchemaPrefix(live: string, projection: string): string {
  const readable = `rm_${live}_${projection}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const room = MAX_IDENTIFIER - '_g'.length - 6;
  if (readable.length <= room) return `${readable}_g`;
  const hash = createHash('sha256').update(`${live}\0${projection}`).digest('hex').slice(0, 8);
  return `${readable.slice(0, room - hash.length - 1)}_${hash}_g`;
}

export const generationSchemaName = (live: string, projection: string, generation: number): string =>
  `${generationSchemaPrefix(live, projection)}${generation}`;

/**
 * The select list of a projection transaction's first statement, with the commit told not to wait
 * for its WAL to reach the disk when asked. Safe for a projection: its rows and its checkpoint
 * commit together, so a crash can only lose both, and the runner then applies those events again
 * from the durable event store (appends always wait).
 */
export const withAsynchronousCommit = (select: string, asynchronousCommit = false): string =>
  asynchronousCommit ? `${select}, set_config('synchronous_commit', 'off', true)` : select;

/**
 * For the rest of the transaction, unqualified names resolve in the generation's schema first,
 * then in the live schema: a projection's CREATE TABLE IF NOT EXISTS, INSERT and UPDATE land in
 * its generation, while the checkpoint and event tables are still found in the live schema.
 */
export async function useGeneration(
  tx: SqlQueryable,
  schema: string,
  live: string,
  settings: { asynchronousCommit?: boolean } = {},
): Promise<void> {
  const searchPath = `${quoteIdentifier(schema)}, ${quoteIdentifier(live)}`;
  await tx.query(
    withAsynchronousCommit(`SELECT set_config('search_path', $1, true)`, settings.asynchronousCommit),
    [searchPath],
  );
}

/** Base tables of a schema, by name. */
export async function tablesIn(q: SqlQueryable, schema: string): Promise<string[]> {
  const { rows } = await q.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
    [schema],
  );
  return rows.map((row) => row.name);
}

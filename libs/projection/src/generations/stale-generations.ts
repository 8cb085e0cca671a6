import type { SqlQueryable } from '@switchyard/sql';
import { generationSchemaPrefix, quoteIdentifier } from './generation-schema';

/**
 * Drops a projection's generation schemas that nothing serves: a build a crash interrupted, or an
 * old generation whose drop after the switch did not happen. Schemas some projection serves from
 * are kept whatever their name (two projection names can share a sanitized prefix).
 */
export async function dropStaleGenerations(
  q: SqlQueryable,
  live: string,
  projection: string,
): Promise<string[]> {
  const prefix = generationSchemaPrefix(live, projection);
  const { rows } = await q.query<{ schema: string }>(
    `SELECT n.nspname AS schema FROM pg_namespace n
     WHERE left(n.nspname, length($1)) = $1 AND substr(n.nspname, length($1) + 1) ~ '^[0-9]+$'
       AND NOT EXISTS (SELECT 1 FROM sy_projection_generations g WHERE g.schema = n.nspname)`,
    [prefix],
  );
  const stale = rows.map((row) => row.schema);
  if (stale.length > 0) {
    await q.exec(stale.map((schema) => `DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`).join(';\n'));
  }
  return stale;
}

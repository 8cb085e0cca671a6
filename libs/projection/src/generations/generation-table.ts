import type { SqlQueryable } from '@switchyard/sql';

const TABLE = `
CREATE TABLE IF NOT EXISTS sy_projection_generations (
  name        text PRIMARY KEY,
  generation  int NOT NULL,
  schema      text NOT NULL,
  tables      text[] NOT NULL,
  switched_at timestamptz NOT NULL
);`;

/**
 * Which generation of each projection's tables the live schema's views point at. A projection
 * without a row keeps real tables in the live schema (built in place, or from an older release).
 * Concurrent CREATE TABLE IF NOT EXISTS can collide in the catalog, hence the transaction lock.
 */
export async function ensureGenerationTable(tx: SqlQueryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('sy_projection_generations'))`);
  await tx.exec(TABLE);
}

export interface Generation {
  name: string;
  /** 1, 2, …: each blue-green build takes the next number. */
  generation: number;
  /** The PostgreSQL schema holding its tables. */
  schema: string;
  /** Its tables, each served through a view of the same name in the live schema. */
  tables: string[];
}

/** The generation serving a projection; null while its tables are real tables in the live schema. */
export async function readActiveGeneration(q: SqlQueryable, name: string): Promise<Generation | null> {
  const { rows } = await q.query<Generation>(
    'SELECT name, generation, schema, tables FROM sy_projection_generations WHERE name = $1',
    [name],
  );
  const row = rows[0];
  return row ? { ...row, generation: Number(row.generation) } : null;
}

export async function recordActiveGeneration(tx: SqlQueryable, generation: Generation): Promise<void> {
  await tx.query(
    `INSERT INTO sy_projection_generations (name, generation, schema, tables, switched_at)
     VALUES ($1, $2, $3, $4::text[], now())
     ON CONFLICT (name) DO UPDATE SET generation = EXCLUDED.generation, schema = EXCLUDED.schema,
       tables = EXCLUDED.tables, switched_at = EXCLUDED.switched_at`,
    [generation.name, generation.generation, generation.schema, generation.tables],
  );
}

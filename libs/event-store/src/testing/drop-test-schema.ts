import type { SqlExecutor } from '@switchyard/sql';

/** testDatabases() gives each PostgreSQL suite a fresh t_<hex> schema; leave the shared server clean. */
export async function dropTestSchema(executor: SqlExecutor): Promise<void> {
  if (executor.dialect !== 'postgres') return;
  const { rows } = await executor.query<{ schema: string }>('SELECT current_schema() AS schema');
  const schema = rows[0]?.schema;
  if (schema && /^t_[0-9a-f]+$/.test(schema)) await executor.exec(`DROP SCHEMA ${schema} CASCADE`);
}

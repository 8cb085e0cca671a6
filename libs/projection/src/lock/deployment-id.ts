import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@switchyard/sql';

/**
 * The identity of one deployment, kept in its database: the processes that share the database
 * share it, and nothing else does. Names what several deployments may share without meaning to
 * (a Redis server: the engine leases are scoped by it). Created by whichever process asks first.
 */
export async function deploymentId(executor: SqlExecutor): Promise<string> {
  return executor.transaction(async (tx) => {
    // Concurrent CREATE ... IF NOT EXISTS can still collide in the catalog: one process at a time.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('sy_deployment'))`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS sy_deployment (
         singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
         id text NOT NULL
       )`,
    );
    await tx.query('INSERT INTO sy_deployment (id) VALUES ($1) ON CONFLICT DO NOTHING', [randomUUID()]);
    const { rows } = await tx.query<{ id: string }>('SELECT id FROM sy_deployment');
    return rows[0]!.id;
  });
}

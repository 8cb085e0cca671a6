import { testDatabases } from '@switchyard/testing';
import { SqlEventStore } from '../sql/sql-event-store';
import type { SqlExecutor } from '../sql/sql-executor';
import { describeEventStoreContract } from './event-store.contract';

/** PGlite always (one in-memory instance for the whole suite); PostgreSQL when DATABASE_URL is set. */
for (const database of testDatabases()) {
  describeEventStoreContract(database.name, async (schemas) => {
    const executor = await database.open();
    const store = await SqlEventStore.open(executor, schemas);
    return {
      store,
      async close() {
        await store.close();
        await dropTestSchema(executor);
        await executor.close();
      },
    };
  });
}

/** testDatabases() gives each PostgreSQL suite a fresh t_<hex> schema; leave the shared server clean. */
async function dropTestSchema(executor: SqlExecutor): Promise<void> {
  if (executor.dialect !== 'postgres') return;
  const { rows } = await executor.query<{ schema: string }>('SELECT current_schema() AS schema');
  const schema = rows[0]?.schema;
  if (schema && /^t_[0-9a-f]+$/.test(schema)) await executor.exec(`DROP SCHEMA ${schema} CASCADE`);
}

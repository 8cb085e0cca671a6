import { postgresBystanders, testDatabases } from '@switchyard/testing';
import { SqlEventStore } from '../sql/sql-event-store';
import { dropTestSchema } from '../testing/drop-test-schema';
import { describeEventStoreContract } from './event-store.contract';

/**
 * PGlite always (one in-memory instance for the whole suite); PostgreSQL when DATABASE_URL is set,
 * with transactions held open beside the store on the same server (PGlite has one connection, so
 * nothing can stay open beside it).
 */
for (const database of testDatabases()) {
  const bystanders = database.name === 'postgres' ? postgresBystanders() : [];
  describeEventStoreContract(
    database.name,
    async (schemas) => {
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
    },
    { bystanders },
  );
}

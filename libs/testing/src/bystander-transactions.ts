import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { freshPostgresDatabase } from './fresh-postgres-database';

/** A transaction left open, as an idle-in-transaction session leaves it, until release(). */
export interface HeldTransaction {
  release(): Promise<void>;
}

/**
 * A transaction that has nothing to do with the event store, held open on the store's PostgreSQL
 * server while the store is used: what an analytics job or a forgotten psql prompt does. Each one
 * writes, so it has a transaction id that every snapshot on the server lists as running.
 */
export interface Bystander {
  name: string;
  hold(): Promise<HeldTransaction>;
}

/** Opens a session, writes in a transaction left open, and on release rolls back and cleans up. */
async function holdOpen(
  url: string,
  setup: string,
  write: string,
  cleanup: (client: Client) => Promise<void>,
): Promise<HeldTransaction> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(setup);
    await client.query('BEGIN');
    await client.query(write);
  } catch (error) {
    await client.end();
    throw error;
  }
  return {
    async release() {
      await client.query('ROLLBACK');
      await cleanup(client);
      await client.end();
    },
  };
}

/** Another database of the same server: one created for the purpose, dropped on release. */
export const otherDatabaseBystander = (serverUrl: string): Bystander => ({
  name: 'in another database of the same server',
  async hold() {
    const database = await freshPostgresDatabase(serverUrl, `t_bystander_${randomBytes(6).toString('hex')}`);
    try {
      const held = await holdOpen(
        database.url,
        'CREATE TABLE analytics (n integer)',
        'INSERT INTO analytics VALUES (1)',
        async () => undefined,
      );
      return {
        async release() {
          await held.release();
          await database.drop();
        },
      };
    } catch (error) {
      await database.drop();
      throw error;
    }
  },
});

/** The same database, a plain table in a schema of its own (t_<hex>, dropped on release). */
export const sameDatabaseBystander = (databaseUrl: string): Bystander => ({
  name: 'in the same database, on a table outside the store',
  async hold() {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    return holdOpen(
      databaseUrl,
      `CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.plain (n integer)`,
      `INSERT INTO ${schema}.plain VALUES (1)`,
      async (client) => {
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
      },
    );
  },
});

/** Both kinds, on the server of DATABASE_URL; none without it. */
export function postgresBystanders(): Bystander[] {
  const url = process.env.DATABASE_URL;
  return url ? [otherDatabaseBystander(url), sameDatabaseBystander(url)] : [];
}

/**
 * An append to the event store at `databaseUrl` (its sy_append, in the schema the URL's session
 * finds) left in flight: called in a transaction that stays open, as a slow appender would. It
 * rightly holds every feed reader of that store back until release(), which rolls it back: the way
 * to keep a read model from seeing the writes made meanwhile.
 */
export async function holdAppendInFlight(databaseUrl: string): Promise<HeldTransaction> {
  return holdOpen(
    databaseUrl,
    'SELECT 1',
    `SELECT * FROM sy_append('held-${randomBytes(6).toString('hex')}', 'any', ARRAY[gen_random_uuid()::text],
       ARRAY['AppendHeldInFlight'], ARRAY[1], ARRAY['{}'], ARRAY['{}'])`,
    async () => undefined,
  );
}

import { randomBytes } from 'node:crypto';
import { freshPostgresDatabase, testDatabases, type FreshDatabase } from '@switchyard/testing';

export type { FreshDatabase };

/**
 * Whether the PostgreSQL suites run: the same rule as every other suite (skipped with a message
 * without DATABASE_URL, a failure with SWITCHYARD_REQUIRE_POSTGRES=1).
 */
export const postgresAvailable = (): boolean => testDatabases().some((db) => db.name === 'postgres');

/**
 * A brand-new database on the test server, as a first start meets it: not even the schema a
 * suite of the shared test database would find.
 */
export const createFreshPostgresDatabase = (): Promise<FreshDatabase> =>
  freshPostgresDatabase(process.env.DATABASE_URL!, `sy_fresh_${randomBytes(6).toString('hex')}`);

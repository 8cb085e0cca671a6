import { randomBytes } from 'node:crypto';
import { PgExecutor, PgliteExecutor, type SqlExecutor } from '@switchyard/sql';

/**
 * SQL backends a suite can run against: PGlite always; PostgreSQL when DATABASE_URL is set. With
 * SWITCHYARD_REQUIRE_POSTGRES=1 (set by .ci/run) a missing DATABASE_URL fails instead of skipping,
 * so nothing real is skipped in CI.
 */
export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** A fresh, empty database: in-memory PGlite, or a new schema on the PostgreSQL server. */
  open(): Promise<SqlExecutor>;
}

const pglite: TestDatabase = { name: 'pglite', open: () => PgliteExecutor.open() };

const postgres = (url: string): TestDatabase => ({
  name: 'postgres',
  async open() {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = await PgExecutor.open(url, { max: 1 });
    await admin.exec(`CREATE SCHEMA ${schema}`);
    await admin.close();
    return PgExecutor.open(url, { options: `-c search_path=${schema}` });
  },
});

export function testDatabases(): TestDatabase[] {
  const url = process.env.DATABASE_URL;
  if (url) return [pglite, postgres(url)];
  if (process.env.SWITCHYARD_REQUIRE_POSTGRES === '1') {
    throw new Error('SWITCHYARD_REQUIRE_POSTGRES=1 but DATABASE_URL is not set');
  }
  reportSkip('PostgreSQL', 'DATABASE_URL');
  return [pglite];
}

const reported = new Set<string>();
export function reportSkip(what: string, variable: string): void {
  if (reported.has(what)) return;
  reported.add(what);
  process.stderr.write(`[switchyard tests] ${what} suites skipped: ${variable} is not set\n`);
}

/** describe.each over every available database, with a readable name. */
export const describeEachDatabase = (title: string, body: (db: TestDatabase) => void): void => {
  for (const db of testDatabases()) describe(`${title} [${db.name}]`, () => body(db));
};

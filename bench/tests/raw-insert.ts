import { PGlite } from '@electric-sql/pglite';
import { Pool } from 'pg';
import { EXECUTIONS_TABLE, TEST_ENGINE_SCHEMA } from '@switchyard/test-engine';
import type { SyntheticCase } from './otlp-upload-body';

const RAW_TABLE = 'bench_raw_executions';

/** A database handle for the raw baseline: the same server the app uses, or a PGlite of its own. */
export interface RawDatabase {
  query(sql: string, params?: unknown[]): Promise<unknown>;
  /** The server processes this handle writes through (none for PGlite, which runs in this process). */
  ownBackendPids(): Promise<number[]>;
  /** The server processes of everyone else on the same database: the app's. */
  otherBackendPids(): Promise<number[]>;
  close(): Promise<void>;
}

export async function openRawDatabase(url: string | undefined): Promise<RawDatabase> {
  if (url) {
    const pool = new Pool({ connectionString: url, max: 1 });
    const pids = async (sql: string) => (await pool.query<{ pid: number }>(sql)).rows.map((row) => row.pid);
    return {
      query: (sql, params) => pool.query(sql, params),
      ownBackendPids: () => pids('SELECT pg_backend_pid() AS pid'),
      otherBackendPids: () =>
        pids(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        ),
      close: () => pool.end(),
    };
  }
  const lite = await PGlite.create();
  return {
    query: (sql, params) => (params ? lite.query(sql, params) : lite.exec(sql)),
    ownBackendPids: async () => [],
    otherBackendPids: async () => [],
    close: () => lite.close(),
  };
}

/** The executions table's own shape and keys, under another name, so both sides index alike. */
export async function createRawTable(db: RawDatabase, table = RAW_TABLE): Promise<void> {
  const schema = TEST_ENGINE_SCHEMA.split(';')
    .filter(
      (statement) =>
        statement.includes(`TABLE IF NOT EXISTS ${EXECUTIONS_TABLE} `) ||
        statement.includes(`ON ${EXECUTIONS_TABLE} `),
    )
    .map((statement) => statement.replaceAll(EXECUTIONS_TABLE, table))
    .join(';');
  await db.query(`DROP TABLE IF EXISTS ${table}`);
  for (const statement of schema.split(';').filter((s) => s.trim())) await db.query(statement);
}

let span = 0;

/** One upload's rows, as one INSERT … SELECT FROM unnest (the cheapest way to store them). */
export async function insertRaw(
  db: RawDatabase,
  cases: readonly SyntheticCase[],
  sha: string,
  job: string,
  finishedAt: string,
) {
  const trace = `raw-${sha}-${job}`;
  await db.query(
    `INSERT INTO ${RAW_TABLE} (repository, trace_id, span_id, test_id, test_name, pipeline_name, job_name, commit_key,
       commit_sha, on_default_branch, conclusion, finished_at, duration_ms, quarantined, failure_id, exception_type,
       exception_message, filepath)
     SELECT 'acme/bench', $1, s, gen_random_uuid(), n, 'ci', $2, $3, $3, true, c, $4, 5, false, NULL, NULL, NULL, n
     FROM unnest($5::text[], $6::text[], $7::text[]) AS t(s, n, c)
     ON CONFLICT DO NOTHING`,
    [
      trace,
      job,
      sha,
      finishedAt,
      cases.map(() => String(++span)),
      cases.map((c) => c.name),
      cases.map((c) => c.status),
    ],
  );
}

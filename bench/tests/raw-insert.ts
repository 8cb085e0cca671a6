import { PGlite } from '@electric-sql/pglite';
import { Pool } from 'pg';
import { EXECUTIONS_TABLE, TEST_ENGINE_SCHEMA } from '@switchyard/test-engine';
import { type BinaryArray, boolArray, encodeBinaryArray, float8Array, textArray } from '@switchyard/sql';
import { failureIdOf, testIdOf } from '@switchyard/test-engine';
import { FAILURE, type UploadedSpan } from './otlp-upload-body';

export const RAW_TABLE = 'bench_raw_executions';

/** A database handle for the raw baseline: the same server the app uses, or a PGlite of its own. */
export interface RawDatabase {
  query(sql: string, params?: unknown[]): Promise<unknown>;
  /** An array parameter: binary for PostgreSQL (encodeBinaryArray), a plain array for PGlite. */
  array(array: BinaryArray): unknown;
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
      array: (array) => encodeBinaryArray(array),
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
    array: (array) => array.values,
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

/** One upload's rows as the read model stores them, column by column, computed before any timing. */
export interface RawRows {
  repository: string;
  job: string;
  sha: string;
  columns: {
    traceId: string[];
    spanId: string[];
    testId: string[];
    testName: string[];
    conclusion: string[];
    finishedAt: string[];
    durationMs: number[];
    quarantined: boolean[];
    failureId: (string | null)[];
    exceptionType: (string | null)[];
    exceptionMessage: (string | null)[];
    filepath: string[];
  };
}

/** The rows ours stores for these spans: same ids, test ids (uuid5), times and failure columns. */
export function rawRowsOf(
  spans: readonly UploadedSpan[],
  where: { repository: string; sha: string; job: string },
): RawRows {
  const { repository, sha, job } = where;
  const failed = (span: UploadedSpan) => span.status === 'failed';
  const testId = spans.map((span) => testIdOf(repository, span.name));
  return {
    repository,
    job,
    sha,
    columns: {
      traceId: spans.map((span) => span.traceId),
      spanId: spans.map((span) => span.spanId),
      testId,
      testName: spans.map((span) => span.name),
      conclusion: spans.map((span) => span.status),
      finishedAt: spans.map((span) => span.finishedAt),
      durationMs: spans.map((span) => span.durationMs),
      quarantined: spans.map(() => false),
      failureId: spans.map((span, i) =>
        failed(span) ? failureIdOf(testId[i]!, FAILURE.type, FAILURE.message) : null,
      ),
      exceptionType: spans.map((span) => (failed(span) ? FAILURE.type : null)),
      exceptionMessage: spans.map((span) => (failed(span) ? FAILURE.message : null)),
      filepath: spans.map((span) => span.filepath),
    },
  };
}

/**
 * One upload's rows, as one INSERT … SELECT FROM unnest with every array in binary (the
 * cheapest way to store them from node-postgres): the same rows ours stores, nothing else.
 */
export async function insertRaw(db: RawDatabase, rows: RawRows, table = RAW_TABLE): Promise<void> {
  const { columns } = rows;
  const text = (values: readonly (string | null)[]) => db.array(textArray(values));
  await db.query(
    `INSERT INTO ${table} (repository, trace_id, span_id, test_id, test_name, pipeline_name, job_name, commit_key,
       commit_sha, on_default_branch, conclusion, finished_at, duration_ms, quarantined, failure_id, exception_type,
       exception_message, filepath, framework)
     SELECT $1, t, s, i::uuid, n, 'ci', $2, $3, $3, true, c, f::timestamptz, d, q, fi::uuid, et, em, p, 'pytest'
     FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::float8[], $11::bool[],
       $12::text[], $13::text[], $14::text[], $15::text[]) AS x(t, s, i, n, c, f, d, q, fi, et, em, p)
     ON CONFLICT DO NOTHING`,
    [
      rows.repository,
      rows.job,
      rows.sha,
      text(columns.traceId),
      text(columns.spanId),
      text(columns.testId),
      text(columns.testName),
      text(columns.conclusion),
      text(columns.finishedAt),
      db.array(float8Array(columns.durationMs)),
      db.array(boolArray(columns.quarantined)),
      text(columns.failureId),
      text(columns.exceptionType),
      text(columns.exceptionMessage),
      text(columns.filepath),
    ],
  );
}

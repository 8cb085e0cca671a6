import type { SqlQueryable } from '@switchyard/sql';
import { EXECUTIONS_TABLE } from '../projections/test-engine-tables';
import { SCOPE_SQL, scopeParams, type TestScope } from './test-scope';

export interface TestFailureView {
  id: string;
  exceptionType: string;
  exceptionMessage: string;
  failureCount: number;
  firstFailureAt: Date;
  lastFailureAt: Date;
}

export interface FailureEventView {
  id: string;
  failedAt: Date;
  exceptionStacktrace: string | null;
  testFilepath: string | null;
  testProgrammingLanguage: string | null;
  jobUrl: string | null;
}

/** How many of a failure's newest executions its detail shows. */
export const LATEST_FAILURE_EVENTS = 10;

/**
 * A test's failures on the default branch, grouped by failure id, most recent first. Each group
 * shows the message of its latest occurrence (masked parts differ between occurrences).
 */
export async function readTestFailures(
  sql: SqlQueryable,
  scope: TestScope,
  failureId?: string,
): Promise<TestFailureView[]> {
  const { rows } = await sql.query<{
    failure_id: string;
    exception_type: string;
    exception_message: string;
    failure_count: string;
    first_failure_at: Date;
    last_failure_at: Date;
  }>(
    `SELECT failure_id::text, count(*)::text AS failure_count, min(finished_at) AS first_failure_at,
       max(finished_at) AS last_failure_at,
       (array_agg(exception_type ORDER BY finished_at DESC, span_id DESC))[1] AS exception_type,
       (array_agg(exception_message ORDER BY finished_at DESC, span_id DESC))[1] AS exception_message
     FROM ${EXECUTIONS_TABLE}
     WHERE ${SCOPE_SQL} AND on_default_branch AND failure_id IS NOT NULL
       AND ($5::uuid IS NULL OR failure_id = $5::uuid)
     GROUP BY failure_id ORDER BY max(finished_at) DESC, failure_id`,
    [...scopeParams(scope), failureId ?? null],
  );
  return rows.map((row) => ({
    id: row.failure_id,
    exceptionType: row.exception_type,
    exceptionMessage: row.exception_message,
    failureCount: Number(row.failure_count),
    firstFailureAt: new Date(row.first_failure_at),
    lastFailureAt: new Date(row.last_failure_at),
  }));
}

/** The newest executions of one failure; an event id is `<trace id>:<span id>`. */
export async function readLatestFailureEvents(
  sql: SqlQueryable,
  scope: TestScope,
  failureId: string,
): Promise<FailureEventView[]> {
  const { rows } = await sql.query<{
    trace_id: string;
    span_id: string;
    finished_at: Date;
    exception_stacktrace: string | null;
    filepath: string | null;
    language: string | null;
    run_url: string | null;
  }>(
    `SELECT trace_id, span_id, finished_at, exception_stacktrace, filepath, language, run_url
     FROM ${EXECUTIONS_TABLE}
     WHERE ${SCOPE_SQL} AND on_default_branch AND failure_id = $5::uuid
     ORDER BY finished_at DESC, span_id DESC LIMIT ${LATEST_FAILURE_EVENTS}`,
    [...scopeParams(scope), failureId],
  );
  return rows.map((row) => ({
    id: `${row.trace_id}:${row.span_id}`,
    failedAt: new Date(row.finished_at),
    exceptionStacktrace: row.exception_stacktrace,
    testFilepath: row.filepath,
    testProgrammingLanguage: row.language,
    jobUrl: row.run_url,
  }));
}

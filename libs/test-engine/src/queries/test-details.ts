import type { SqlQueryable } from '@switchyard/sql';
import { HEALTH_SEVERITY, type HealthStatus } from '../domain/health/health-rules';
import { EXECUTIONS_TABLE, IDENTITIES_TABLE } from '../projections/test-engine-tables';
import { healthOfRank } from './current-health';
import { SCOPE_SQL, scopeParams, type TestScope } from './test-scope';

export interface TestDetailsView {
  testName: string;
  healthStatus: HealthStatus;
  lastConclusion: string | null;
  failureRatio: number;
  flakinessRatio: number;
  successRatio: number;
  firstFailureAt: Date | null;
  firstFailureCommit: string | null;
  lastFailureAt: Date | null;
  lastSuccessAt: Date | null;
  framework: string | null;
  frameworkVersion: string | null;
  language: string | null;
  filepath: string | null;
  functionName: string | null;
}

/**
 * A test's details over its default-branch history, across its identities or narrowed to one
 * pipeline/job; null when the test never ran there. The badge is the worst identity's; ratios
 * pool the executions of the identities in scope (skips left out).
 */
export async function readTestDetails(sql: SqlQueryable, scope: TestScope): Promise<TestDetailsView | null> {
  const params = scopeParams(scope);
  const identities = await sql.query<{ test_name: string; health_rank: number }>(
    `SELECT min(test_name) AS test_name, max(health_rank) AS health_rank FROM ${IDENTITIES_TABLE} WHERE ${SCOPE_SQL}`,
    params,
  );
  const identity = identities.rows[0];
  if (!identity || identity.test_name === null) return null;
  const [{ rows: counts }, { rows: latest }, { rows: firstFailure }] = await Promise.all([
    sql.query<{ passed: string; failed: string; commits: string; flaky: string }>(
      // Per commit of each identity in scope (the projection keeps such counters only for the
      // identities whose verdict needs them), from the executions.
      `SELECT sum(passed)::text AS passed, sum(failed)::text AS failed,
         count(*) FILTER (WHERE passed + failed > 0)::text AS commits,
         count(*) FILTER (WHERE passed > 0 AND failed > 0)::text AS flaky
       FROM (SELECT count(*) FILTER (WHERE conclusion = 'passed') AS passed,
               count(*) FILTER (WHERE conclusion = 'failed') AS failed
             FROM ${EXECUTIONS_TABLE} WHERE ${SCOPE_SQL} AND on_default_branch
             GROUP BY pipeline_name, job_name, commit_key) c`,
      params,
    ),
    sql.query<{
      conclusion: string;
      framework: string | null;
      framework_version: string | null;
      language: string | null;
      filepath: string | null;
      function_name: string | null;
      last_failure_at: Date | null;
      last_success_at: Date | null;
    }>(
      `SELECT conclusion, framework, framework_version, language, filepath, function_name,
         (SELECT max(finished_at) FROM ${EXECUTIONS_TABLE} WHERE ${SCOPE_SQL} AND on_default_branch AND conclusion = 'failed') AS last_failure_at,
         (SELECT max(finished_at) FROM ${EXECUTIONS_TABLE} WHERE ${SCOPE_SQL} AND on_default_branch AND conclusion = 'passed') AS last_success_at
       FROM ${EXECUTIONS_TABLE} WHERE ${SCOPE_SQL} AND on_default_branch
       ORDER BY finished_at DESC, span_id DESC LIMIT 1`,
      params,
    ),
    sql.query<{ finished_at: Date; commit_sha: string | null }>(
      `SELECT finished_at, commit_sha FROM ${EXECUTIONS_TABLE}
       WHERE ${SCOPE_SQL} AND on_default_branch AND conclusion = 'failed' ORDER BY finished_at, span_id LIMIT 1`,
      params,
    ),
  ]);
  const passed = Number(counts[0]?.passed ?? 0);
  const failed = Number(counts[0]?.failed ?? 0);
  const commits = Number(counts[0]?.commits ?? 0);
  const judged = passed + failed;
  const last = latest[0];
  return {
    testName: identity.test_name,
    healthStatus: healthOfRank(identity.health_rank ?? HEALTH_SEVERITY.healthy),
    lastConclusion: last?.conclusion ?? null,
    failureRatio: judged === 0 ? 0 : failed / judged,
    successRatio: judged === 0 ? 0 : passed / judged,
    flakinessRatio: commits === 0 ? 0 : Number(counts[0]!.flaky) / commits,
    firstFailureAt: firstFailure[0] ? new Date(firstFailure[0].finished_at) : null,
    firstFailureCommit: firstFailure[0]?.commit_sha ?? null,
    lastFailureAt: last?.last_failure_at ? new Date(last.last_failure_at) : null,
    lastSuccessAt: last?.last_success_at ? new Date(last.last_success_at) : null,
    framework: last?.framework ?? null,
    frameworkVersion: last?.framework_version ?? null,
    language: last?.language ?? null,
    filepath: last?.filepath ?? null,
    functionName: last?.function_name ?? null,
  };
}

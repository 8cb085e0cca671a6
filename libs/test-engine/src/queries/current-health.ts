import type { SqlQueryable } from '@switchyard/sql';
import { HEALTH_SEVERITY, type HealthStatus } from '../domain/health/health-rules';
import { testIdOf } from '../domain/identity/test-identity';
import { IDENTITIES_TABLE } from '../projections/test-engine-tables';
import { testResultsProjection } from '../projections/test-results.projection';

/** The read models the health queries serve from (for read-your-writes waits). */
export const TEST_RESULTS_READ_MODELS: readonly string[] = [testResultsProjection.name];

/** A test's badge on the default branch now: the worst across the identities in scope. */
export interface CurrentTestHealth {
  testId: string;
  testName: string;
  healthStatus: HealthStatus;
  /** When the latest default-branch commit of these identities first ran. */
  lastRunAt: Date;
}

/** Narrows to one pipeline and/or job; null or omitted means every one (a quarantine's all-scope). */
export interface HealthScope {
  pipelineName?: string | null;
  jobName?: string | null;
}

/**
 * The current default-branch health of each named test, keyed by test name; a test without any
 * default-branch run is absent (a quarantine's `health_status: null`). This is the query the
 * quarantine side reads for `is_recovered`, `health_status`, `unquarantine_when_healthy` and
 * auto-quarantine; it serves from the test_engine.results projection (TEST_RESULTS_READ_MODELS).
 */
export async function readCurrentHealthOnDefaultBranch(
  sql: SqlQueryable,
  repository: string,
  testNames: readonly string[],
  scope: HealthScope = {},
): Promise<Map<string, CurrentTestHealth>> {
  if (testNames.length === 0) return new Map();
  const ids = testNames.map((name) => testIdOf(repository, name));
  const { rows } = await sql.query<{
    test_id: string;
    test_name: string;
    health_rank: number;
    last_finished_at: Date | string;
  }>(
    `SELECT test_id::text, min(test_name) AS test_name, max(health_rank) AS health_rank,
       max(last_finished_at) AS last_finished_at
     FROM ${IDENTITIES_TABLE}
     WHERE repository = $1 AND test_id = ANY($2::uuid[])
       AND ($3::text IS NULL OR pipeline_name = $3) AND ($4::text IS NULL OR job_name = $4)
     GROUP BY test_id`,
    [repository, ids, scope.pipelineName ?? null, scope.jobName ?? null],
  );
  const byId = new Map(rows.map((row) => [row.test_id, row]));
  const result = new Map<string, CurrentTestHealth>();
  testNames.forEach((testName, index) => {
    const row = byId.get(ids[index]!);
    if (!row) return;
    result.set(testName, {
      testId: row.test_id,
      testName,
      healthStatus: healthOfRank(row.health_rank),
      lastRunAt: new Date(row.last_finished_at),
    });
  });
  return result;
}

/** Every test whose badge on the default branch is flaky or broken (auto-quarantine candidates). */
export async function readUnhealthyTestsOnDefaultBranch(
  sql: SqlQueryable,
  repository: string,
): Promise<CurrentTestHealth[]> {
  const { rows } = await sql.query<{
    test_id: string;
    test_name: string;
    health_rank: number;
    last_finished_at: Date | string;
  }>(
    `SELECT test_id::text, min(test_name) AS test_name, max(health_rank) AS health_rank,
       max(last_finished_at) AS last_finished_at
     FROM ${IDENTITIES_TABLE} WHERE repository = $1
     GROUP BY test_id HAVING max(health_rank) > 0 ORDER BY min(test_name)`,
    [repository],
  );
  return rows.map((row) => ({
    testId: row.test_id,
    testName: row.test_name,
    healthStatus: healthOfRank(row.health_rank),
    lastRunAt: new Date(row.last_finished_at),
  }));
}

const RANKED = Object.entries(HEALTH_SEVERITY) as [HealthStatus, number][];

export const healthOfRank = (rank: number): HealthStatus =>
  RANKED.find(([, severity]) => severity === rank)![0];

/** One identity's badge on the default branch (the shape the quarantine side's ReadTestHealth takes). */
export interface IdentityHealthOnDefaultBranch {
  pipelineName: string;
  jobName: string;
  health: HealthStatus;
}

/**
 * Per test name, the health of each identity (pipeline, job) that ran on the default branch; a
 * test absent from the map has no default-branch run. Satisfies the quarantine side's
 * ReadTestHealth port (READ_TEST_HEALTH): it applies a quarantine's pipeline/job scope itself.
 */
export async function readIdentityHealthOnDefaultBranch(
  sql: SqlQueryable,
  repository: string,
  testNames: readonly string[],
): Promise<Map<string, IdentityHealthOnDefaultBranch[]>> {
  const result = new Map<string, IdentityHealthOnDefaultBranch[]>();
  if (testNames.length === 0) return result;
  const nameById = new Map(testNames.map((name) => [testIdOf(repository, name), name]));
  const { rows } = await sql.query<{
    test_id: string;
    pipeline_name: string;
    job_name: string;
    health_status: HealthStatus;
  }>(
    `SELECT test_id::text, pipeline_name, job_name, health_status FROM ${IDENTITIES_TABLE}
     WHERE repository = $1 AND test_id = ANY($2::uuid[]) ORDER BY pipeline_name, job_name`,
    [repository, [...nameById.keys()]],
  );
  for (const row of rows) {
    const name = nameById.get(row.test_id)!;
    const list = result.get(name) ?? [];
    list.push({ pipelineName: row.pipeline_name, jobName: row.job_name, health: row.health_status });
    result.set(name, list);
  }
  return result;
}

import type { SqlQueryable } from '@switchyard/sql';
import type { QuarantineSource } from '../domain/test-quarantine';
import { AUTO_QUARANTINE_TABLE, QUARANTINE_TABLE } from './test-quarantine.projection';

/** An active quarantine as stored; health is joined later, from the test engine's runs. */
export interface QuarantineRow {
  id: string;
  testName: string;
  testId: string;
  reason: string;
  branch: string | null;
  pipelineName: string | null;
  jobName: string | null;
  source: QuarantineSource;
  unquarantineWhenHealthy: boolean;
  createdAt: string;
}

/** The list filters SQL can apply; health filters need the runs and are applied after. */
export interface QuarantineRowFilters {
  /** Deprecated `branch`: quarantines of that branch and those of every branch. */
  branch?: string;
  testIds?: readonly string[];
  sources?: readonly QuarantineSource[];
  branchNames?: readonly string[];
  branchNamesExcluded?: readonly string[];
  pipelineNames?: readonly string[];
  pipelineNamesExcluded?: readonly string[];
  jobNames?: readonly string[];
  jobNamesExcluded?: readonly string[];
  testNames?: readonly string[];
  testNamesExcluded?: readonly string[];
}

interface StoredRow {
  id: string;
  test_name: string;
  test_id: string;
  reason: string;
  branch: string | null;
  pipeline_name: string | null;
  job_name: string | null;
  source: QuarantineSource;
  unquarantine_when_healthy: boolean;
  created_ms: number;
}

const COLUMNS = `id::text AS id, test_name, test_id::text AS test_id, reason, branch, pipeline_name, job_name,
  source, unquarantine_when_healthy, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms`;

const toRow = (row: StoredRow): QuarantineRow => ({
  id: row.id,
  testName: row.test_name,
  testId: row.test_id,
  reason: row.reason,
  branch: row.branch,
  pipelineName: row.pipeline_name,
  jobName: row.job_name,
  source: row.source,
  unquarantineWhenHealthy: row.unquarantine_when_healthy,
  createdAt: new Date(row.created_ms).toISOString(),
});

/**
 * Active quarantines of a repository matching the filters, in creation order. A scope column that
 * is null (every branch, pipeline or job) always matches an include filter and is always kept by an
 * exclude filter (spec "Quarantine list filters").
 */
export async function listActiveQuarantines(
  sql: SqlQueryable,
  repository: string,
  filters: QuarantineRowFilters = {},
): Promise<QuarantineRow[]> {
  const params: unknown[] = [repository];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = ['repository_key = $1', 'active'];
  const include = (column: string, values: readonly string[] | undefined, allScope: boolean) => {
    if (values === undefined) return;
    const match = `${column} = ANY(${param(values)}::text[])`;
    where.push(allScope ? `(${column} IS NULL OR ${match})` : match);
  };
  const exclude = (column: string, values: readonly string[] | undefined, allScope: boolean) => {
    if (values === undefined) return;
    const kept = `NOT (${column} = ANY(${param(values)}::text[]))`;
    where.push(allScope ? `(${column} IS NULL OR ${kept})` : kept);
  };
  if (filters.branch !== undefined) where.push(`(branch IS NULL OR branch = ${param(filters.branch)})`);
  include(
    'test_id::text',
    filters.testIds?.map((id) => id.toLowerCase()),
    false,
  );
  include('source', filters.sources, false);
  include('branch', filters.branchNames, true);
  exclude('branch', filters.branchNamesExcluded, true);
  include('pipeline_name', filters.pipelineNames, true);
  exclude('pipeline_name', filters.pipelineNamesExcluded, true);
  include('job_name', filters.jobNames, true);
  exclude('job_name', filters.jobNamesExcluded, true);
  include('test_name', filters.testNames, false);
  exclude('test_name', filters.testNamesExcluded, false);
  const { rows } = await sql.query<StoredRow>(
    `SELECT ${COLUMNS} FROM ${QUARANTINE_TABLE} WHERE ${where.join(' AND ')} ORDER BY created_at, id`,
    params,
  );
  return rows.map(toRow);
}

/** One active quarantine of a repository; null when unknown there or lifted. */
export async function findActiveQuarantine(
  sql: SqlQueryable,
  repository: string,
  id: string,
): Promise<QuarantineRow | null> {
  const { rows } = await sql.query<StoredRow>(
    `SELECT ${COLUMNS} FROM ${QUARANTINE_TABLE} WHERE id = $1 AND repository_key = $2 AND active`,
    [id, repository],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Names among `testNames` with an active quarantine applying to `branch` (or to every branch). */
export async function quarantinedTestNames(
  sql: SqlQueryable,
  repository: string,
  testNames: readonly string[],
  branch: string | null,
): Promise<Set<string>> {
  const { rows } = await sql.query<{ test_name: string }>(
    `SELECT DISTINCT test_name FROM ${QUARANTINE_TABLE}
     WHERE repository_key = $1 AND active AND test_name = ANY($2::text[])
       AND (branch IS NULL OR branch = $3)`,
    [repository, testNames, branch],
  );
  return new Set(rows.map((row) => row.test_name));
}

/** Whether any active quarantine of the repository is lifted once its test is healthy again. */
export async function awaitsRecovery(sql: SqlQueryable, repository: string): Promise<boolean> {
  const { rows } = await sql.query<{ awaits: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ${QUARANTINE_TABLE}
       WHERE repository_key = $1 AND active AND unquarantine_when_healthy) AS awaits`,
    [repository],
  );
  return rows[0]!.awaits;
}

export interface AutoQuarantineView {
  enabled: boolean;
  ignoreBrokenOnDefaultBranch: boolean;
}

/** The repository's auto-quarantine switch; off until someone turns it on. */
export async function autoQuarantineSettings(
  sql: SqlQueryable,
  repository: string,
): Promise<AutoQuarantineView> {
  const { rows } = await sql.query<{ enabled: boolean; ignore_broken_on_default_branch: boolean }>(
    `SELECT enabled, ignore_broken_on_default_branch FROM ${AUTO_QUARANTINE_TABLE} WHERE repository_key = $1`,
    [repository],
  );
  const row = rows[0];
  return {
    enabled: row?.enabled ?? false,
    ignoreBrokenOnDefaultBranch: row?.ignore_broken_on_default_branch ?? false,
  };
}

import type { SqlQueryable } from '@switchyard/sql';
import {
  confidenceOf,
  type FailedExecutionsImpact,
  type HealthConfidence,
  HEALTH_SEVERITY,
  type HealthStatus,
} from '../domain/health/health-rules';
import { IDENTITIES_TABLE, IDENTITY_COUNTS_TABLE } from '../projections/test-engine-tables';
import { isQuarantinedIdentitySql } from '../quarantine/projection/quarantined-identity.sql';
import { nameNarrowingSql, selectByName } from './name-globs';

export const SEARCH_SORTS = [
  'executions_count',
  'test_name',
  'pipeline_name',
  'job_name',
  'health_status',
  'failed_executions_impact',
  'failed_executions_ratio',
] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export interface SearchFilters {
  testName?: string[];
  testNameExclude?: string[];
  pipelineName?: string[];
  pipelineNameExclude?: string[];
  jobName?: string[];
  jobNameExclude?: string[];
  healthStatus?: HealthStatus[];
  healthStatusExclude?: HealthStatus[];
  impact?: FailedExecutionsImpact[];
  impactExclude?: FailedExecutionsImpact[];
  isQuarantined?: boolean;
}

export interface SearchRequest extends SearchFilters {
  repository: string;
  defaultBranch: string;
  sort: SearchSort;
  direction: 'asc' | 'desc';
  offset: number;
  perPage: number;
}

export interface TestSearchRow {
  testId: string;
  testName: string;
  pipelineName: string;
  jobName: string;
  isQuarantined: boolean;
  healthStatus: HealthStatus;
  healthConfidence: HealthConfidence;
  failedExecutionsImpact: FailedExecutionsImpact | null;
}

/**
 * Ascending health puts broken first and ascending impact high first (worst first, as the
 * quarantine list's health sort does); ties fall back to the identity, so pages are stable.
 */
const ORDER_COLUMN: Readonly<Record<SearchSort, string>> = {
  executions_count: 'executions_count',
  test_name: 'test_name',
  pipeline_name: 'pipeline_name',
  job_name: 'job_name',
  health_status: '-health_rank',
  failed_executions_impact: 'impact_rank',
  failed_executions_ratio: 'failed_executions_ratio',
};

/** A page row as the queries return it. */
interface SearchRow {
  test_id: string;
  test_name: string;
  pipeline_name: string;
  job_name: string;
  health_status: HealthStatus;
  failed_executions_impact: FailedExecutionsImpact | null;
  executions_count: number;
  is_quarantined: boolean;
}

/** The identities that ran on the default branch, filtered, sorted and paged, with the total. */
export async function searchTests(
  sql: SqlQueryable,
  request: SearchRequest,
): Promise<{ rows: TestSearchRow[]; total: number }> {
  const params: unknown[] = [request.repository];
  const where: string[] = ['i.repository = $1'];
  const add = (value: unknown) => `$${params.push(value)}`;

  const byName = await selectByName(
    sql,
    request.repository,
    request.testName ?? [],
    request.testNameExclude ?? [],
  );
  if (byName && 'only' in byName && byName.only.length === 0) return { rows: [], total: 0 };
  if (byName && 'except' in byName && byName.except.length > 0)
    where.push(`NOT (i.test_id = ANY(${add(byName.except)}::uuid[]))`);
  const inclusion = (column: string, values: unknown[] | undefined, exclude: unknown[] | undefined) => {
    if (values?.length) where.push(`${column} = ANY(${add(values)}::text[])`);
    if (exclude?.length) where.push(`NOT (${column} = ANY(${add(exclude)}::text[]))`);
  };
  inclusion('i.pipeline_name', request.pipelineName, request.pipelineNameExclude);
  inclusion('i.job_name', request.jobName, request.jobNameExclude);
  inclusion('i.health_status', request.healthStatus, request.healthStatusExclude);
  // Healthy ruled out: the same condition once more as a literal, which the planner can match to
  // the index of identities that are not healthy (it cannot see through the parameters).
  if (!admittedHealth(request).includes('healthy')) where.push(`i.health_rank > ${HEALTH_SEVERITY.healthy}`);
  if (request.impact?.length) where.push(`i.failed_executions_impact = ANY(${add(request.impact)}::text[])`);
  if (request.impactExclude?.length)
    where.push(
      `NOT (i.failed_executions_impact IS NOT NULL AND i.failed_executions_impact = ANY(${add(request.impactExclude)}::text[]))`,
    );
  const quarantinedOf = (alias: string, defaultBranch: string) =>
    isQuarantinedIdentitySql(
      {
        repository: `${alias}.repository`,
        testName: `${alias}.test_name`,
        pipelineName: `${alias}.pipeline_name`,
        jobName: `${alias}.job_name`,
      },
      defaultBranch,
    );
  if (request.isQuarantined !== undefined)
    where.push(`${request.isQuarantined ? '' : 'NOT '}${quarantinedOf('i', add(request.defaultBranch))}`);
  const filters = where.join(' AND ');
  const pageBranch = add(request.defaultBranch);

  const column = ORDER_COLUMN[request.sort];
  const descending = request.direction === 'desc';
  const [name, flip] = column.startsWith('-') ? [column.slice(1), !descending] : [column, descending];
  const direction = flip ? 'DESC' : 'ASC';
  // test_id never breaks a tie (a repository's test name fixes it); it runs the same way as the
  // other keys so one index per sort serves the page in either direction.
  const order = (alias: string) =>
    [name, 'test_name', 'pipeline_name', 'job_name', 'test_id']
      .map((key) => `${alias}.${key} ${direction}`)
      .join(', ');
  const limit = `LIMIT ${add(request.perPage)} OFFSET ${add(request.offset)}`;
  // The sort runs over the keys alone and only the page's rows are read whole: a top-N sort copies
  // every row it is offered, and the identity rows are wide.
  const sortKeys = [...new Set([name, 'test_name', 'pipeline_name', 'job_name', 'test_id'])]
    .map((key) => `i.${key}`)
    .join(', ');
  const pageRow = `${IDENTITIES_TABLE} p ON p.repository = $1 AND p.test_id = k.test_id
    AND p.pipeline_name = k.pipeline_name AND p.job_name = k.job_name`;
  const columns = `k.test_id::text, k.test_name, k.pipeline_name, k.job_name, p.health_status,
    p.failed_executions_impact, p.executions_count, ${quarantinedOf('k', pageBranch)} AS is_quarantined`;

  if (where.length === 1 && !(byName && 'only' in byName)) {
    // No filter: the page is cut first (a top-N sort of the repository's identities: the counts of
    // the default sort are in no index, so that uploads update them heap-only) and only its rows are
    // checked against quarantines; the total is the repository's identity count, kept by the
    // projection, not a count over rows that updates leave old versions of.
    const [{ rows }, counted] = await Promise.all([
      sql.query<SearchRow>(
        `SELECT ${columns}
         FROM (SELECT ${sortKeys}, i.repository FROM ${IDENTITIES_TABLE} i WHERE ${filters} ORDER BY ${order('i')} ${limit}) k
         JOIN ${pageRow}
         ORDER BY ${order('k')}`,
        params,
      ),
      sql.query<{ n: string }>(
        `SELECT coalesce((SELECT identities FROM ${IDENTITY_COUNTS_TABLE} WHERE repository = $1), 0)::text AS n`,
        [request.repository],
      ),
    ]);
    return { total: Number(counted.rows[0]?.n ?? 0), rows: rows.map(searchRowOf) };
  }

  // Filtered: the matching identities are read once (through the globs' name ranges when names
  // picked them), and both the page and the total are cut from those rows, instead of a page and
  // a count that would each walk the repository's identities.
  const narrowing =
    byName && 'only' in byName
      ? ` AND ${nameNarrowingSql(byName.globs, 'i', add)} AND i.test_id = ANY(${add(byName.only)}::uuid[])`
      : '';
  const { rows } = await sql.query<{ total: number } & Partial<SearchRow>>(
    `WITH matched AS MATERIALIZED (SELECT ${sortKeys}, i.repository FROM ${IDENTITIES_TABLE} i WHERE ${filters}${narrowing})
     SELECT t.total, ${columns}
     FROM (SELECT count(*)::int AS total FROM matched) t
     LEFT JOIN (SELECT m.* FROM matched m ORDER BY ${order('m')} ${limit}) k ON true
     LEFT JOIN ${pageRow}
     ORDER BY ${order('k')}`,
    params,
  );
  return {
    total: rows[0]?.total ?? 0,
    rows: rows.filter((row): row is typeof row & SearchRow => row.test_id != null).map(searchRowOf),
  };
}

/** The health statuses a request's include and exclude filters let through. */
const admittedHealth = (request: SearchFilters): HealthStatus[] =>
  (request.healthStatus?.length
    ? request.healthStatus
    : (Object.keys(HEALTH_SEVERITY) as HealthStatus[])
  ).filter((status) => !request.healthStatusExclude?.includes(status));

const searchRowOf = (row: SearchRow): TestSearchRow => ({
  testId: row.test_id,
  testName: row.test_name,
  pipelineName: row.pipeline_name,
  jobName: row.job_name,
  isQuarantined: row.is_quarantined,
  healthStatus: row.health_status,
  healthConfidence: confidenceOf(row.executions_count),
  failedExecutionsImpact: row.failed_executions_impact,
});

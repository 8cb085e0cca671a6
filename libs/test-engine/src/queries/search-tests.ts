import picomatch from 'picomatch';
import type { SqlQueryable } from '@switchyard/sql';
import type { FailedExecutionsImpact, HealthStatus } from '../domain/health/health-rules';
import { IDENTITIES_TABLE } from '../projections/test-engine-tables';
import { isQuarantinedIdentitySql } from '../quarantine/projection/quarantined-identity.sql';

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

/** Globs follow bash: `*` crosses `/` and `::`, so `tests/*` matches every test under tests/. */
const GLOB_OPTIONS = { bash: true, dot: true } as const;

/** The identities that ran on the default branch, filtered, sorted and paged, with the total. */
export async function searchTests(
  sql: SqlQueryable,
  request: SearchRequest,
): Promise<{ rows: TestSearchRow[]; total: number }> {
  const params: unknown[] = [request.repository];
  const where: string[] = ['i.repository = $1'];
  const add = (value: unknown) => `$${params.push(value)}`;

  const ids = await testIdsMatching(sql, request);
  if (ids !== undefined) where.push(`i.test_id = ANY(${add(ids)}::uuid[])`);
  const inclusion = (column: string, values: unknown[] | undefined, exclude: unknown[] | undefined) => {
    if (values?.length) where.push(`${column} = ANY(${add(values)}::text[])`);
    if (exclude?.length) where.push(`NOT (${column} = ANY(${add(exclude)}::text[]))`);
  };
  inclusion('i.pipeline_name', request.pipelineName, request.pipelineNameExclude);
  inclusion('i.job_name', request.jobName, request.jobNameExclude);
  inclusion('i.health_status', request.healthStatus, request.healthStatusExclude);
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
  const filterParams = [...params];
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
  // The page is cut first and only its rows are checked against quarantines; the total is a
  // count of its own, so neither walks every identity twice.
  const [{ rows }, counted] = await Promise.all([
    sql.query<{
      test_id: string;
      test_name: string;
      pipeline_name: string;
      job_name: string;
      health_status: HealthStatus;
      failed_executions_impact: FailedExecutionsImpact | null;
      is_quarantined: boolean;
    }>(
      `SELECT p.test_id::text, p.test_name, p.pipeline_name, p.job_name, p.health_status, p.failed_executions_impact,
         ${quarantinedOf('p', pageBranch)} AS is_quarantined
       FROM (SELECT i.* FROM ${IDENTITIES_TABLE} i WHERE ${filters} ORDER BY ${order('i')}
             LIMIT ${add(request.perPage)} OFFSET ${add(request.offset)}) p
       ORDER BY ${order('p')}`,
      params,
    ),
    sql.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${IDENTITIES_TABLE} i WHERE ${filters}`,
      filterParams,
    ),
  ]);
  const total = Number(counted.rows[0]?.n ?? 0);
  return {
    total,
    rows: rows.map((row) => ({
      testId: row.test_id,
      testName: row.test_name,
      pipelineName: row.pipeline_name,
      jobName: row.job_name,
      isQuarantined: row.is_quarantined,
      healthStatus: row.health_status,
      failedExecutionsImpact: row.failed_executions_impact,
    })),
  };
}

/** Test ids whose names match the globs, or undefined when no name filter was given. */
async function testIdsMatching(sql: SqlQueryable, filters: SearchRequest): Promise<string[] | undefined> {
  if (!filters.testName?.length && !filters.testNameExclude?.length) return undefined;
  const include = filters.testName?.length ? picomatch(filters.testName, GLOB_OPTIONS) : () => true;
  const exclude = filters.testNameExclude?.length
    ? picomatch(filters.testNameExclude, GLOB_OPTIONS)
    : () => false;
  // Only names starting with one of the include globs' literal prefixes can match: PostgreSQL
  // narrows to those, so picomatch judges (and the driver ships) a handful instead of every name.
  const prefixes = filters.testName?.length ? filters.testName.map(literalPrefix) : [''];
  const { rows } = await sql.query<{ test_id: string; test_name: string }>(
    `SELECT DISTINCT test_id::text, test_name FROM ${IDENTITIES_TABLE}
     WHERE repository = $1 AND test_name LIKE ANY($2::text[])`,
    [filters.repository, prefixes.map((prefix) => `${prefix.replace(/[\\%_]/g, '\\$&')}%`)],
  );
  return rows.filter((row) => include(row.test_name) && !exclude(row.test_name)).map((row) => row.test_id);
}

/** The text before a glob's first special character (bash globs: * ? [ ] { } ( ) ! + @ \\). */
export const literalPrefix = (glob: string): string => glob.slice(0, glob.search(/[*?[\]{}()!+@\\]|$/));

import type { SqlQueryable } from '@switchyard/sql';
import { EXECUTIONS_TABLE } from '../projections/test-engine-tables';
import { dayEnd, type DayWindow } from './day-window';
import { type SearchFilters, searchTests } from './search-tests';
import type { StatPoint } from './test-stats';

export const REPOSITORY_TEST_STATS = [
  'total_tests',
  'healthy_tests',
  'broken_tests',
  'flaky_tests',
  'failed_executions',
] as const;
export type RepositoryTestStat = (typeof REPOSITORY_TEST_STATS)[number];

const HEALTH_OF_STAT = { healthy_tests: 'healthy', broken_tests: 'broken', flaky_tests: 'flaky' } as const;

/**
 * The repository's identities by health now (the summary value), beside the per-day failed
 * executions of the matching identities over the window (the series, whatever the stat).
 */
export async function readRepositoryTestStat(
  sql: SqlQueryable,
  request: {
    repository: string;
    defaultBranch: string;
    filters: SearchFilters;
    stat: RepositoryTestStat;
    window: DayWindow;
  },
): Promise<{ value: number; points: StatPoint[] }> {
  const { filters, stat } = request;
  const scoped: SearchFilters =
    stat === 'total_tests' || stat === 'failed_executions'
      ? filters
      : { ...filters, healthStatus: [HEALTH_OF_STAT[stat]] };
  const search = (extra: SearchFilters, perPage: number) =>
    searchTests(sql, {
      repository: request.repository,
      defaultBranch: request.defaultBranch,
      ...extra,
      sort: 'test_name',
      direction: 'asc',
      offset: 0,
      perPage,
    });
  const { total } = await search(scoped, 1);
  const { rows: identities } = await search(filters, 1_000_000);
  const { rows } = await sql.query<{ day: string; failed: string }>(
    `SELECT to_char(e.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::text AS failed
     FROM ${EXECUTIONS_TABLE} e
     JOIN unnest($2::uuid[], $3::text[], $4::text[]) AS i(test_id, pipeline_name, job_name) USING (test_id, pipeline_name, job_name)
     WHERE e.repository = $1 AND e.on_default_branch AND e.conclusion = 'failed' AND e.finished_at >= $5 AND e.finished_at < $6
     GROUP BY 1`,
    [
      request.repository,
      identities.map((i) => i.testId),
      identities.map((i) => i.pipelineName),
      identities.map((i) => i.jobName),
      request.window.start.toISOString(),
      request.window.end.toISOString(),
    ],
  );
  const byDay = new Map(rows.map((row) => [Date.parse(`${row.day}T00:00:00Z`), Number(row.failed)]));
  const points = request.window.days.map((day) => ({
    start: day,
    end: dayEnd(day),
    value: byDay.get(day.getTime()) ?? 0,
  }));
  const failedTotal = points.reduce((sum, point) => sum + point.value, 0);
  return { value: stat === 'failed_executions' ? failedTotal : total, points };
}

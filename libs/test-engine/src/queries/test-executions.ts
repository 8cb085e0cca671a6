import type { SqlQueryable } from '@switchyard/sql';
import { EXECUTIONS_TABLE } from '../projections/test-engine-tables';
import type { DayWindow } from './day-window';

export const EXECUTION_SORTS = ['executions_count', 'pipeline_name', 'job_name'] as const;
export type ExecutionSort = (typeof EXECUTION_SORTS)[number];

export interface IdentityExecutions {
  testName: string;
  pipelineName: string;
  jobName: string;
  executionsCount: number;
}

/** The identities under which a test ran on the default branch in the window, paged by offset. */
export async function readTestExecutions(
  sql: SqlQueryable,
  request: {
    repository: string;
    testId: string;
    window: DayWindow;
    sort: ExecutionSort;
    direction: 'asc' | 'desc';
    offset: number;
    perPage: number;
  },
): Promise<IdentityExecutions[]> {
  const direction = request.direction === 'asc' ? 'ASC' : 'DESC';
  const { rows } = await sql.query<{
    test_name: string;
    pipeline_name: string;
    job_name: string;
    executions_count: string;
  }>(
    `SELECT min(test_name) AS test_name, pipeline_name, job_name, count(*)::text AS executions_count
     FROM ${EXECUTIONS_TABLE}
     WHERE repository = $1 AND test_id = $2::uuid AND on_default_branch AND finished_at >= $3 AND finished_at < $4
     GROUP BY pipeline_name, job_name
     ORDER BY ${request.sort === 'executions_count' ? 'count(*)' : request.sort} ${direction}, pipeline_name ${direction}, job_name ${direction}
     LIMIT $5 OFFSET $6`,
    [
      request.repository,
      request.testId,
      request.window.start.toISOString(),
      request.window.end.toISOString(),
      request.perPage,
      request.offset,
    ],
  );
  return rows.map((row) => ({
    testName: row.test_name,
    pipelineName: row.pipeline_name,
    jobName: row.job_name,
    executionsCount: Number(row.executions_count),
  }));
}

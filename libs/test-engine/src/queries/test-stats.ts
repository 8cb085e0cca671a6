import type { SqlQueryable } from '@switchyard/sql';
import { EXECUTIONS_TABLE } from '../projections/test-engine-tables';
import { dayEnd, type DayWindow } from './day-window';
import { SCOPE_SQL, scopeParams, type TestScope } from './test-scope';

export const TEST_STATS = ['success_count', 'failure_count', 'flaky_count', 'mean_duration'] as const;
export type TestStat = (typeof TEST_STATS)[number];

export interface StatPoint {
  start: Date;
  end: Date;
  value: number;
}

/**
 * One point per UTC day of the window from the default-branch executions in scope. flaky_count
 * counts failed executions on a commit where the same identity also passed; mean_duration is in
 * milliseconds (0 on a day without executions; the summary is the mean over the window).
 */
export async function readTestStat(
  sql: SqlQueryable,
  scope: TestScope,
  stat: TestStat,
  window: DayWindow,
): Promise<{ value: number; points: StatPoint[] }> {
  const { rows } = await sql.query<{
    day: string;
    passed: string;
    failed: string;
    flaky: string;
    duration_sum: number;
    judged: string;
  }>(
    `SELECT to_char(e.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
       count(*) FILTER (WHERE e.conclusion = 'passed')::text AS passed,
       count(*) FILTER (WHERE e.conclusion = 'failed')::text AS failed,
       count(*) FILTER (WHERE e.conclusion = 'failed' AND c.commit_key IS NOT NULL)::text AS flaky,
       coalesce(sum(e.duration_ms) FILTER (WHERE e.conclusion <> 'skipped'), 0) AS duration_sum,
       count(*) FILTER (WHERE e.conclusion <> 'skipped')::text AS judged
     FROM ${EXECUTIONS_TABLE} e
     -- The commits of each identity in scope that saw a pass, whatever the day of that pass.
     LEFT JOIN (SELECT DISTINCT pipeline_name, job_name, commit_key FROM ${EXECUTIONS_TABLE}
                WHERE ${SCOPE_SQL} AND on_default_branch AND conclusion = 'passed') c
       USING (pipeline_name, job_name, commit_key)
     WHERE ${SCOPE_SQL.replace(/\b(repository|test_id|pipeline_name|job_name)\b/g, 'e.$1')}
       AND e.on_default_branch AND e.finished_at >= $5 AND e.finished_at < $6
     GROUP BY 1`,
    [...scopeParams(scope), window.start.toISOString(), window.end.toISOString()],
  );
  const byDay = new Map(rows.map((row) => [Date.parse(`${row.day}T00:00:00Z`), row]));
  let sumValue = 0;
  let durationSum = 0;
  let judged = 0;
  const points = window.days.map((day) => {
    const row = byDay.get(day.getTime());
    const value = row ? valueOf(stat, row) : 0;
    if (row) {
      durationSum += Number(row.duration_sum);
      judged += Number(row.judged);
    }
    sumValue += value;
    return { start: day, end: dayEnd(day), value };
  });
  return { value: stat === 'mean_duration' ? (judged === 0 ? 0 : durationSum / judged) : sumValue, points };
}

function valueOf(
  stat: TestStat,
  row: { passed: string; failed: string; flaky: string; duration_sum: number; judged: string },
): number {
  switch (stat) {
    case 'success_count':
      return Number(row.passed);
    case 'failure_count':
      return Number(row.failed);
    case 'flaky_count':
      return Number(row.flaky);
    case 'mean_duration':
      return Number(row.judged) === 0 ? 0 : Number(row.duration_sum) / Number(row.judged);
  }
}

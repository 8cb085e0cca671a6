import type { SqlQueryable } from '@switchyard/sql';
import { CommitHistory } from '../domain/health/commit-history';
import { type HealthStatus, worstHealth } from '../domain/health/health-rules';
import { EXECUTIONS_TABLE } from '../projections/test-engine-tables';
import { dayEnd, type DayWindow } from './day-window';
import { SCOPE_SQL, scopeParams, type TestScope } from './test-scope';

export interface HealthTransitionView {
  at: Date;
  healthStatus: HealthStatus;
  exceptionType: string | null;
}

/**
 * Replays the identities' default-branch executions up to the window's end, takes the badge at
 * the end of each UTC day (the worst across identities), and keeps the days where it changed.
 * A point's exception type is that of the first failure of the day the badge turned unhealthy;
 * the first point (the badge the window opens with) and recoveries carry none.
 */
export async function readHealthTransitions(
  sql: SqlQueryable,
  scope: TestScope,
  window: DayWindow,
): Promise<{ transitions: HealthTransitionView[]; firstActivityAt: Date | null }> {
  const { rows } = await sql.query<{
    pipeline_name: string;
    job_name: string;
    commit_key: string;
    conclusion: 'passed' | 'failed' | 'skipped';
    finished_at: Date;
    exception_type: string | null;
  }>(
    `SELECT pipeline_name, job_name, commit_key, conclusion, finished_at, exception_type FROM ${EXECUTIONS_TABLE}
     WHERE ${SCOPE_SQL} AND on_default_branch AND finished_at < $5
     ORDER BY finished_at, span_id`,
    [...scopeParams(scope), window.end.toISOString()],
  );
  const histories = new Map<string, CommitHistory>();
  const badge = (): HealthStatus | null => {
    let worst: HealthStatus | null = null;
    for (const history of histories.values()) {
      const status = history.verdict().status;
      worst = worst === null ? status : worstHealth(worst, status);
    }
    return worst;
  };
  let next = 0;
  const replayUntil = (end: Date): string | null => {
    let firstFailure: string | null = null;
    for (; next < rows.length && new Date(rows[next]!.finished_at) < end; next++) {
      const row = rows[next]!;
      const key = `${row.pipeline_name}\n${row.job_name}`;
      const history = histories.get(key) ?? new CommitHistory();
      history.record(row.commit_key, row.conclusion);
      histories.set(key, history);
      if (row.conclusion === 'failed' && firstFailure === null) firstFailure = row.exception_type;
    }
    return firstFailure;
  };

  replayUntil(window.start);
  const ranBefore = next > 0;
  const firstInWindow = rows[next];
  const firstActivityAt = ranBefore
    ? window.start
    : firstInWindow
      ? new Date(firstInWindow.finished_at)
      : null;
  const transitions: HealthTransitionView[] = [];
  let current = badge();
  if (current !== null) transitions.push({ at: window.start, healthStatus: current, exceptionType: null });
  for (const day of window.days) {
    const firstFailure = replayUntil(dayEnd(day));
    const status = badge();
    if (status === null || status === current) continue;
    transitions.push({
      at: day,
      healthStatus: status,
      exceptionType: current === null || status === 'healthy' ? null : firstFailure,
    });
    current = status;
  }
  return { transitions, firstActivityAt };
}

/**
 * The numbers behind a test's health; docs/test-health.md gives the reasoning for each. Health is
 * counted in commits of one identity on the default branch, never in days, so a verdict follows
 * from the uploads alone (replays and rebuilds give the same answer on any day).
 */
export const HEALTH_RULES = {
  /** Commits looked at: the same-commit flaky evidence stays on the badge this long. */
  windowCommits: 50,
  /** Commits the broken score weighs, newest first. */
  brokenLookbackCommits: 10,
  /** Weight of a commit relative to the next newer one. */
  brokenDecay: 0.5,
  /** Share of the weighted commits that failed; 0.7 takes two failed commits in a row. */
  brokenThreshold: 0.7,
  /** One failed commit is a bad day, not yet "consistently": it takes this many in the lookback. */
  brokenMinFailedCommits: 2,
  /** failed_executions_impact: failed share of executions below `low` is low, below `medium` medium. */
  impactLowBelow: 0.05,
  impactMediumBelow: 0.2,
  /** health_confidence: executions collected below `medium` is low, below `high` medium. */
  confidenceMediumFrom: 10,
  confidenceHighFrom: 30,
} as const;

export type HealthStatus = 'healthy' | 'flaky' | 'broken';
export type Conclusion = 'passed' | 'failed' | 'skipped';
export type FailedExecutionsImpact = 'low' | 'medium' | 'high';
export type HealthConfidence = 'low' | 'medium' | 'high';

/**
 * How much the verdict rests on: Mergify's confidence "increases as more CI runs are collected for
 * a given test" (docs test-insights/detection), its reruns included: every default-branch
 * execution of the identity (search's executions_count).
 */
export function confidenceOf(executions: number): HealthConfidence {
  if (executions < HEALTH_RULES.confidenceMediumFrom) return 'low';
  if (executions < HEALTH_RULES.confidenceHighFrom) return 'medium';
  return 'high';
}

/** Worse first: the order "worst across jobs" and ascending health_status sorts use. */
export const HEALTH_SEVERITY: Readonly<Record<HealthStatus, number>> = { broken: 2, flaky: 1, healthy: 0 };

export const worstHealth = (a: HealthStatus, b: HealthStatus): HealthStatus =>
  HEALTH_SEVERITY[a] >= HEALTH_SEVERITY[b] ? a : b;

import type { HealthStatus } from '../../domain/health/health-rules';

export type { HealthStatus };

export const HEALTH_STATUSES: readonly HealthStatus[] = ['broken', 'flaky', 'healthy'];

/** Broken outranks flaky outranks healthy: a scope spanning several jobs shows its worst. */
const SEVERITY: Readonly<Record<HealthStatus, number>> = { healthy: 0, flaky: 1, broken: 2 };

/** The worst of the given healths; null when there are none (no recent runs). */
export function worstHealth(healths: readonly HealthStatus[]): HealthStatus | null {
  let worst: HealthStatus | null = null;
  for (const health of healths) if (worst === null || SEVERITY[health] > SEVERITY[worst]) worst = health;
  return worst;
}

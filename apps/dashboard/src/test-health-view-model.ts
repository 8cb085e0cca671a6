/** The test health pages' readings of the test engine API (spec "Test engine resources"). */

export type HealthStatus = 'healthy' | 'flaky' | 'broken';
export const HEALTH_STATUSES: readonly HealthStatus[] = ['broken', 'flaky', 'healthy'];

/** The tests table's filters, as the form holds them. */
export interface TestFilters {
  testName: string;
  /** The health statuses shown; none checked shows every test. */
  health: HealthStatus[];
  /** '' for both, else whether quarantined tests only or unquarantined ones only. */
  quarantined: '' | 'true' | 'false';
}

export const NO_TEST_FILTERS: TestFilters = { testName: '', health: [], quarantined: '' };

/** `/v1/ci/{owner}/repositories/{repository}` for a repository named `owner/name`. */
export function ciPath(repository: string): string {
  const [owner, name] = repository.split('/').map(encodeURIComponent);
  return `/v1/ci/${owner}/repositories/${name}`;
}

/** search/tests' query for these filters: worst first (the failure ratio, descending). */
export function testSearchQuery(filters: TestFilters, perPage: number): string {
  const query = new URLSearchParams();
  if (filters.testName.trim()) query.set('test_name', filters.testName.trim());
  for (const status of filters.health) query.append('health_status', status);
  if (filters.quarantined) query.set('is_quarantined', filters.quarantined);
  query.set('sort', 'failed_executions_ratio');
  query.set('direction', 'desc');
  query.set('per_page', String(perPage));
  return query.toString();
}

/** A ratio in 0..1 as a percentage a person reads, or a dash when unknown. */
export function percent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '—';
  const value = ratio * 100;
  return `${value > 0 && value < 1 ? value.toFixed(1) : Math.round(value)}%`;
}

/** The quarantine create body from the form: an empty branch means every branch. */
export function quarantineBody(
  testName: string,
  reason: string,
  branch: string,
  unquarantineWhenHealthy: boolean,
) {
  return {
    test_name: testName,
    reason: reason.trim(),
    branch: branch.trim() || null,
    unquarantine_when_healthy: unquarantineWhenHealthy,
  };
}

/** Where a quarantine applies, in words: its branch, pipeline and job, each "every" when null. */
export function quarantineScope(quarantine: {
  branch_name: string | null;
  pipeline_name: string | null;
  job_name: string | null;
}): string {
  return [
    quarantine.branch_name === null ? 'every branch' : `branch ${quarantine.branch_name}`,
    quarantine.pipeline_name === null ? 'every pipeline' : `pipeline ${quarantine.pipeline_name}`,
    quarantine.job_name === null ? 'every job' : `job ${quarantine.job_name}`,
  ].join(', ');
}

export interface HealthTransitionJson {
  at: string;
  health_status: HealthStatus;
  exception_type?: string | null;
  pull_request?: { number: number; title: string } | null;
}

/** One health transition as the page tells it: the new health, and what caused it when known. */
export function describeTransition(transition: HealthTransitionJson, previous: HealthStatus | null): string {
  const cause = [
    transition.exception_type ? `after ${transition.exception_type}` : null,
    transition.pull_request
      ? `from #${transition.pull_request.number} ${transition.pull_request.title}`
      : null,
  ]
    .filter(Boolean)
    .join(' ');
  const change =
    previous === null
      ? `First seen ${transition.health_status}`
      : `${previous} → ${transition.health_status}`;
  return cause ? `${change}, ${cause}` : change;
}

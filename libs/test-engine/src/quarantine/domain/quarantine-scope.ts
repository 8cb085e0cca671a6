import { type HealthStatus, worstHealth } from './health-status';

/** Where a quarantine applies; null in a field means every branch, pipeline or job. */
export interface QuarantineScope {
  branch: string | null;
  pipelineName: string | null;
  jobName: string | null;
}

/** One test identity on the default branch (ci-insights §2: test, pipeline, job) and its health. */
export interface IdentityHealth {
  pipelineName: string;
  jobName: string;
  health: HealthStatus;
}

export const sameScope = (a: QuarantineScope, b: QuarantineScope): boolean =>
  a.branch === b.branch && a.pipelineName === b.pipelineName && a.jobName === b.jobName;

/** Whether a quarantine's pipeline and job scope includes this identity. */
export const coversIdentity = (
  scope: Pick<QuarantineScope, 'pipelineName' | 'jobName'>,
  identity: { pipelineName: string; jobName: string },
): boolean =>
  (scope.pipelineName === null || scope.pipelineName === identity.pipelineName) &&
  (scope.jobName === null || scope.jobName === identity.jobName);

/**
 * The health a quarantine shows: the worst across the identities it covers, null when none of them
 * ran recently. It is recovered when that is healthy.
 */
export const scopeHealth = (
  scope: Pick<QuarantineScope, 'pipelineName' | 'jobName'>,
  identities: readonly IdentityHealth[],
): HealthStatus | null =>
  worstHealth(identities.filter((identity) => coversIdentity(scope, identity)).map((i) => i.health));

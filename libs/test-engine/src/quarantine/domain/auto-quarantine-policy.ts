import type { HealthStatus } from './health-status';
import type { AutoQuarantineSettings } from './test-quarantine';

/**
 * Which health auto-quarantine acts on (ci-insights §3.5): flaky tests always; broken ones only
 * with ignore_broken_on_default_branch, the option whose failures are then ignored too.
 */
export const autoQuarantines = (health: HealthStatus, settings: AutoQuarantineSettings): boolean =>
  health === 'flaky' || (health === 'broken' && settings.ignoreBrokenOnDefaultBranch);

export const autoQuarantineReason = (health: HealthStatus): string =>
  `Automatically quarantined: ${health} on the default branch`;

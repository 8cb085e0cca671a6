import type { Actor } from '@switchyard/kernel';
import type { HealthStatus } from './health-status';
import type { IdentityHealth } from './quarantine-scope';

/** POST quarantines: every pipeline and job of the test, on one branch or all (null). */
export interface QuarantineTest {
  type: 'QuarantineTest';
  repository: string;
  quarantineId: string;
  testName: string;
  testId: string;
  reason: string;
  branch: string | null;
  unquarantineWhenHealthy: boolean;
  /** The test's current health on the default branch, read by the caller (null: no recent runs). */
  health: HealthStatus | null;
  actor: Actor;
  at: Date;
}

/** DELETE quarantines/{id}. */
export interface DequarantineTest {
  type: 'DequarantineTest';
  repository: string;
  quarantineId: string;
  /** Health per identity of the quarantined test on the default branch, read by the caller. */
  identities: readonly IdentityHealth[];
  actor: Actor;
  at: Date;
}

/** The admin route: switch auto-quarantine on (with its option) or off. */
export interface ConfigureAutoQuarantine {
  type: 'ConfigureAutoQuarantine';
  repository: string;
  enabled: boolean;
  ignoreBrokenOnDefaultBranch: boolean;
  actor: Actor;
  at: Date;
}

/**
 * One test's health on the default branch now: every identity of the test with its health.
 * `autoQuarantineIds[i]` is the id a quarantine of `identities[i]` would get, derived from the
 * source event, so a retried reaction makes the same one.
 */
export interface TestHealthUpdate {
  testName: string;
  testId: string;
  identities: readonly IdentityHealth[];
  autoQuarantineIds: readonly string[];
}

/**
 * Tests' health on the default branch changed (one upload, or auto-quarantine switched on).
 * Issued by the quarantine-health reactor, one command per reaction; the decider lifts recovered
 * quarantines and, when auto-quarantine is on, quarantines unhealthy identities.
 */
export interface ApplyTestHealth {
  type: 'ApplyTestHealth';
  repository: string;
  tests: readonly TestHealthUpdate[];
  at: Date;
}

export type TestQuarantineCommand =
  QuarantineTest | DequarantineTest | ConfigureAutoQuarantine | ApplyTestHealth;

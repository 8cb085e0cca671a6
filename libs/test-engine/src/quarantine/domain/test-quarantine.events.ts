import type { Actor } from '@switchyard/kernel';
import type { HealthStatus } from './health-status';
import type { QuarantineScope } from './quarantine-scope';

export type QuarantineSource = 'manual' | 'auto';

/** What a quarantine is, as recorded when it was made. */
export interface QuarantineRecord extends QuarantineScope {
  quarantineId: string;
  testName: string;
  testId: string;
  reason: string;
  source: QuarantineSource;
  unquarantineWhenHealthy: boolean;
  /** The test's health in this scope when quarantined; null when it had no recent runs. */
  healthAtEvent: HealthStatus | null;
}

/** A test quarantined, by a caller (manual) or by auto-quarantine (auto, no actor). */
export interface TestQuarantined {
  type: 'test_quarantine.quarantined';
  data: QuarantineRecord & { repository: string; actor: Actor | null; at: string };
}

/** A quarantine lifted, by a caller (manual) or once the test recovered (auto, no actor). */
export interface TestDequarantined {
  type: 'test_quarantine.dequarantined';
  data: {
    quarantineId: string;
    repository: string;
    source: QuarantineSource;
    original: QuarantineRecord & { createdAt: string };
    /** The test's health in the quarantine's scope when lifted; null without recent runs. */
    healthAtEvent: HealthStatus | null;
    actor: Actor | null;
    at: string;
  };
}

export interface AutoQuarantineSettings {
  ignoreBrokenOnDefaultBranch: boolean;
}

export interface AutoQuarantineEnabled {
  type: 'test_quarantine.auto_quarantine_enabled';
  data: { repository: string; settings: AutoQuarantineSettings; actor: Actor; at: string };
}

export interface AutoQuarantineDisabled {
  type: 'test_quarantine.auto_quarantine_disabled';
  data: { repository: string; settings: AutoQuarantineSettings; actor: Actor; at: string };
}

export interface AutoQuarantineModified {
  type: 'test_quarantine.auto_quarantine_modified';
  data: {
    repository: string;
    before: AutoQuarantineSettings;
    after: AutoQuarantineSettings;
    actor: Actor;
    at: string;
  };
}

export type TestQuarantineEvent =
  | TestQuarantined
  | TestDequarantined
  | AutoQuarantineEnabled
  | AutoQuarantineDisabled
  | AutoQuarantineModified;

export const testQuarantineEventTypes: readonly TestQuarantineEvent['type'][] = [
  'test_quarantine.quarantined',
  'test_quarantine.dequarantined',
  'test_quarantine.auto_quarantine_enabled',
  'test_quarantine.auto_quarantine_disabled',
  'test_quarantine.auto_quarantine_modified',
];

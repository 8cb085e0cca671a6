import {
  actorMetadata,
  logMappingOfData,
  repositoryLogRecord,
  type LogMapping,
  type LogRecordDraft,
} from '@switchyard/activity-log-contract';
import type { HealthStatus } from '../domain/health-status';
import type { AutoQuarantineSettings, TestQuarantineEvent } from '../domain/test-quarantine';

/**
 * Quarantine events -> activity-log records (spec "Events" metadata table). Repository-level: no
 * pull request, no base ref. A caller's change is triggered by the API; what the service decides
 * by itself (auto-quarantine, lifting a recovered test) by auto-quarantine.
 */
type DataOf<T extends TestQuarantineEvent['type']> = Extract<TestQuarantineEvent, { type: T }>['data'];
type Mapper<T extends TestQuarantineEvent['type']> = (data: DataOf<T>) => LogRecordDraft[];

const API_TRIGGER = 'api';
const AUTO_TRIGGER = 'auto_quarantine';

/**
 * The spec's health_status_at_event is one of healthy, flaky or broken. A test with no recent runs
 * on the default branch is neither flaky nor broken, which is what healthy means there.
 */
const healthAtEvent = (health: HealthStatus | null): HealthStatus => health ?? 'healthy';

const configAttributes = (settings: AutoQuarantineSettings) => ({
  ignore_broken_on_default_branch: settings.ignoreBrokenOnDefaultBranch,
});

const mappers: { [T in TestQuarantineEvent['type']]: Mapper<T> } = {
  'test_quarantine.quarantined': (d) => [
    repositoryLogRecord(d, 'test.quarantined', d.source === 'auto' ? AUTO_TRIGGER : API_TRIGGER, {
      quarantine_id: d.quarantineId,
      test_id: d.testId,
      test_name: d.testName,
      source: d.source,
      reason: d.reason,
      branch: d.branch,
      quarantined_at: d.at,
      health_status_at_event: healthAtEvent(d.healthAtEvent),
      ...actorMetadata('quarantined', d.actor),
    }),
  ],
  'test_quarantine.dequarantined': (d) => [
    repositoryLogRecord(d, 'test.dequarantined', d.source === 'auto' ? AUTO_TRIGGER : API_TRIGGER, {
      quarantine_id: d.quarantineId,
      test_id: d.original.testId,
      test_name: d.original.testName,
      source: d.source,
      original_quarantine: {
        source: d.original.source,
        reason: d.original.reason,
        branch: d.original.branch,
        created_at: d.original.createdAt,
        health_status_at_event: healthAtEvent(d.original.healthAtEvent),
      },
      // Mergify's own schema carries the health at removal here, beside the spec's original one.
      health_status_at_event: healthAtEvent(d.healthAtEvent),
      dequarantined_at: d.at,
      ...actorMetadata('dequarantined', d.actor),
    }),
  ],
  'test_quarantine.auto_quarantine_enabled': (d) => [
    repositoryLogRecord(d, 'ci_insights.auto_quarantine.enabled', API_TRIGGER, {
      ...actorMetadata('enabled', d.actor),
      enabled_at: d.at,
      auto_quarantine_config_attributes: configAttributes(d.settings),
    }),
  ],
  'test_quarantine.auto_quarantine_disabled': (d) => [
    repositoryLogRecord(d, 'ci_insights.auto_quarantine.disabled', API_TRIGGER, {
      ...actorMetadata('disabled', d.actor),
      disabled_at: d.at,
      auto_quarantine_config_attributes: configAttributes(d.settings),
    }),
  ],
  'test_quarantine.auto_quarantine_modified': (d) => [
    repositoryLogRecord(d, 'ci_insights.auto_quarantine.modified', API_TRIGGER, {
      ...actorMetadata('updated', d.actor),
      updated_at: d.at,
      auto_quarantine_config_attributes_before: configAttributes(d.before),
      auto_quarantine_config_attributes_after: configAttributes(d.after),
    }),
  ],
};

export const quarantineLogMapping: LogMapping = logMappingOfData(mappers);

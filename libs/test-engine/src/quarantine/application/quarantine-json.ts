import type { HealthStatus } from '../domain/health-status';
import type { QuarantineSource } from '../domain/test-quarantine';
import type { QuarantineRow } from '../projection/test-quarantine.read-model';

/** QuarantinedTest (spec "Test engine resources"). */
export interface QuarantinedTestJson {
  id: string;
  test_name: string;
  test_id: string;
  reason: string;
  /** Deprecated copy of branch_name, still read by the CLI and reporters. */
  branch: string | null;
  branch_name: string | null;
  pipeline_name: string | null;
  job_name: string | null;
  created_at: string;
  health_status: HealthStatus | null;
  is_recovered: boolean;
  unquarantine_when_healthy: boolean;
  source: QuarantineSource;
}

export const quarantinedTestJson = (
  row: QuarantineRow,
  health: HealthStatus | null,
): QuarantinedTestJson => ({
  id: row.id,
  test_name: row.testName,
  test_id: row.testId,
  reason: row.reason,
  branch: row.branch,
  branch_name: row.branch,
  pipeline_name: row.pipelineName,
  job_name: row.jobName,
  created_at: row.createdAt,
  health_status: health,
  is_recovered: health === 'healthy',
  unquarantine_when_healthy: row.unquarantineWhenHealthy,
  source: row.source,
});

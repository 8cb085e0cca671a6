import { QUARANTINE_TABLE } from './test-quarantine.projection';

/** SQL expressions naming a test identity in the caller's query. */
export interface IdentityColumns {
  repository: string;
  testName: string;
  pipelineName: string;
  jobName: string;
}

/**
 * A boolean SQL expression: is this identity quarantined? For search/tests' `is_quarantined` (spec:
 * "a quarantine covers its branch, pipeline and job"). Identities are read on the default branch,
 * so a quarantine counts when it applies to every branch or, given `defaultBranch` (an SQL
 * expression), to that one; a null pipeline or job covers them all. Served by the partial index
 * on active quarantines (repository, test name).
 */
export function isQuarantinedIdentitySql(columns: IdentityColumns, defaultBranch?: string): string {
  const branch =
    defaultBranch === undefined ? 'q.branch IS NULL' : `(q.branch IS NULL OR q.branch = ${defaultBranch})`;
  return `EXISTS (SELECT 1 FROM ${QUARANTINE_TABLE} q
    WHERE q.active AND q.repository_key = ${columns.repository} AND q.test_name = ${columns.testName}
      AND ${branch}
      AND (q.pipeline_name IS NULL OR q.pipeline_name = ${columns.pipelineName})
      AND (q.job_name IS NULL OR q.job_name = ${columns.jobName}))`;
}

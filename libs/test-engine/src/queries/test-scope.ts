/** A test, optionally narrowed to one pipeline and/or job (the per-test endpoints' query). */
export interface TestScope {
  repository: string;
  testId: string;
  pipelineName?: string;
  jobName?: string;
}

/** `AND …` narrowing of a query whose $1 is the repository, $2 the test id, $3/$4 pipeline/job. */
export const SCOPE_SQL = `repository = $1 AND test_id = $2::uuid
  AND ($3::text IS NULL OR pipeline_name = $3) AND ($4::text IS NULL OR job_name = $4)`;

export const scopeParams = (scope: TestScope): unknown[] => [
  scope.repository,
  scope.testId,
  scope.pipelineName ?? null,
  scope.jobName ?? null,
];

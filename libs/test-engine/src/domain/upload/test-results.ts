import type { Conclusion } from '../health/health-rules';

/** Where and on what a batch of tests ran: the resource attributes of ci-insights §1.3–§1.5. */
export interface RunContext {
  pipelineName: string;
  jobName: string;
  /** `vcs.ref.head.revision`; null when the reporter could not tell. */
  commitSha: string | null;
  /** `vcs.ref.head.name`, without `refs/heads/`. */
  headRef: string | null;
  /** `vcs.ref.base.name`: set on pull-request runs. */
  baseRef: string | null;
  /** The repository's default branch when the upload arrived (the default-branch rule needs it). */
  defaultBranch: string;
  runId: string | null;
  runAttempt: number | null;
  runUrl: string | null;
  provider: string | null;
  testRunId: string | null;
  framework: string | null;
  frameworkVersion: string | null;
  language: string | null;
}

/** One test case span (`test.scope=case`). */
export interface TestExecution {
  /** With spanId, what joins chunked uploads: the same span twice is one execution. */
  traceId: string;
  spanId: string;
  testName: string;
  conclusion: Conclusion;
  /** The span's end, RFC 3339 UTC. */
  finishedAt: string;
  durationMs: number;
  quarantined: boolean;
  filepath: string | null;
  functionName: string | null;
  exceptionType: string | null;
  exceptionMessage: string | null;
  exceptionStacktrace: string | null;
}

/** The executions of one upload that share a run context. */
export interface RunResults {
  run: RunContext;
  executions: TestExecution[];
}

/** ci-insights §3.4: on the default branch when the head is that branch and there is no base. */
export const ranOnDefaultBranch = (run: RunContext): boolean =>
  run.baseRef === null && run.headRef !== null && run.headRef === run.defaultBranch;

import type { RecordedEvent } from '@switchyard/event-store';
import type { Conclusion } from '../domain/health/health-rules';
import { toExecutionColumns } from '../domain/upload/execution-columns';
import type { TestResultsRecorded } from '../domain/upload/test-upload';
import type { RunContext, TestExecution } from '../domain/upload/test-results';

/** A default-branch run context with only what a test cares about spelled out. */
export function runOn(overrides: Partial<RunContext> & { commitSha: string }): RunContext {
  return {
    pipelineName: 'ci',
    jobName: 'tests',
    headRef: 'main',
    baseRef: null,
    defaultBranch: 'main',
    runId: null,
    runAttempt: null,
    runUrl: null,
    provider: null,
    testRunId: null,
    framework: null,
    frameworkVersion: null,
    language: null,
    ...overrides,
  };
}

let spanCounter = 0;

export function execution(
  testName: string,
  conclusion: Conclusion,
  finishedAt: string,
  extra: Partial<TestExecution> = {},
): TestExecution {
  spanCounter++;
  return {
    traceId: 'a'.repeat(32),
    spanId: spanCounter.toString(16).padStart(16, '0'),
    testName,
    conclusion,
    finishedAt,
    durationMs: 10,
    quarantined: false,
    filepath: null,
    functionName: null,
    exceptionType: conclusion === 'failed' ? 'AssertionError' : null,
    exceptionMessage: conclusion === 'failed' ? 'expected 1, got 2' : null,
    exceptionStacktrace: null,
    ...extra,
  };
}

let position = 0;

/** A stored upload event, as the projection receives it (the columnar form ingestion records). */
export function recorded(
  repository: string,
  run: RunContext,
  executions: TestExecution[],
): RecordedEvent<TestResultsRecorded> {
  position++;
  return {
    streamId: `test_upload-${position}`,
    revision: 0n,
    position: position.toString().padStart(20, '0'),
    eventId: `00000000-0000-4000-8000-${position.toString().padStart(12, '0')}`,
    type: 'test_results.recorded',
    schemaVersion: 1,
    data: {
      repository,
      uploadId: String(position),
      source: 'otlp',
      receivedAt: executions[0]!.finishedAt,
      part: 0,
      parts: 1,
      run,
      executions: toExecutionColumns(executions),
    },
    metadata: {},
    recordedAt: new Date(executions[0]!.finishedAt),
  };
}

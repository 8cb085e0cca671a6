import type { TestDetailsView } from '../queries/test-details';
import type { FailureEventView, TestFailureView } from '../queries/test-failures';
import type { StatPoint } from '../queries/test-stats';

const iso = (date: Date | null): string | null =>
  date === null ? null : date.toISOString().replace('.000Z', 'Z');

export const statJson = (stat: string, value: number, points: StatPoint[]) => ({
  stat,
  value,
  value_over_time: points.map((point) => ({
    start: iso(point.start),
    end: iso(point.end),
    value: point.value,
  })),
});

export const failureJson = (failure: TestFailureView) => ({
  id: failure.id,
  exception_type: failure.exceptionType,
  exception_message: failure.exceptionMessage,
  failure_count: failure.failureCount,
  first_failure_at: iso(failure.firstFailureAt),
  last_failure_at: iso(failure.lastFailureAt),
});

export const failureEventJson = (event: FailureEventView) => ({
  id: event.id,
  failed_at: iso(event.failedAt),
  exception_stacktrace: event.exceptionStacktrace,
  test_filepath: event.testFilepath,
  test_programming_language: event.testProgrammingLanguage,
  job_url: event.jobUrl,
});

export const detailsJson = (repository: string, testId: string, details: TestDetailsView) => ({
  repository,
  test_name: details.testName,
  test_id: testId,
  health_status: details.healthStatus,
  last_conclusion: details.lastConclusion,
  failure_ratio: details.failureRatio,
  flakiness_ratio: details.flakinessRatio,
  success_ratio: details.successRatio,
  flaky_detection_enabled: true,
  first_failure_at: iso(details.firstFailureAt),
  first_failure_commit: details.firstFailureCommit,
  // No commit-to-pull-request map exists yet (no merge events from the code host).
  first_failure_pull: null,
  last_failure_at: iso(details.lastFailureAt),
  last_success_at: iso(details.lastSuccessAt),
  test_framework: details.framework,
  test_framework_version: details.frameworkVersion,
  test_programming_language: details.language,
  test_filepath: details.filepath,
  test_function_name: details.functionName,
});

export { iso };

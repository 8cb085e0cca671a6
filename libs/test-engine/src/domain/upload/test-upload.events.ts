import type { ExecutionColumns } from './execution-columns';
import type { RunContext, TestExecution } from './test-results';

export type UploadSource = 'otlp' | 'junit';

/**
 * Part of one upload: one run context and many executions. An upload is recorded as a few of
 * these (one per run context, split every MAX_EXECUTIONS_PER_EVENT), never one event per test.
 */
export interface TestResultsRecorded {
  type: 'test_results.recorded';
  data: {
    repository: string;
    uploadId: string;
    source: UploadSource;
    receivedAt: string;
    /** 0-based index of this event among the upload's parts, and how many there are. */
    part: number;
    parts: number;
    run: RunContext;
    /**
     * Column by column (ExecutionColumns). Events recorded before that form carry one object per
     * execution; read them through executionColumnsOf, which takes both.
     */
    executions: ExecutionColumns | TestExecution[];
  };
}

export type TestUploadEvent = TestResultsRecorded;

export const testUploadEventTypes = [
  'test_results.recorded',
] as const satisfies readonly TestUploadEvent['type'][];

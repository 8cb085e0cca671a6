import type { Decider } from '@switchyard/kernel';
import {
  type ExecutionColumns,
  executionCount,
  type RunColumns,
  sliceExecutionColumns,
} from './execution-columns';
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

/** Keeps each event well under a megabyte even with stack traces. */
export const MAX_EXECUTIONS_PER_EVENT = 1000;

export interface RecordTestResults {
  type: 'RecordTestResults';
  repository: string;
  /** Derived from the upload's content, so sending the same upload twice records it once. */
  uploadId: string;
  source: UploadSource;
  receivedAt: string;
  runs: RunColumns[];
}

export interface TestUploadState {
  recorded: boolean;
}

/** One stream per upload: the first copy is recorded, every later copy of it changes nothing. */
export const testUploadDecider: Decider<TestUploadState, RecordTestResults, TestUploadEvent> = {
  initialState: () => ({ recorded: false }),
  evolve: () => ({ recorded: true }),
  decide(command, state) {
    if (state.recorded) return [];
    const parts: Omit<TestResultsRecorded['data'], 'part' | 'parts'>[] = [];
    for (const { run, executions } of command.runs) {
      for (let start = 0; start < executionCount(executions); start += MAX_EXECUTIONS_PER_EVENT) {
        parts.push({
          repository: command.repository,
          uploadId: command.uploadId,
          source: command.source,
          receivedAt: command.receivedAt,
          run,
          executions: sliceExecutionColumns(executions, start, start + MAX_EXECUTIONS_PER_EVENT),
        });
      }
    }
    return parts.map((data, part) => ({
      type: 'test_results.recorded',
      data: { ...data, part, parts: parts.length },
    }));
  },
};

export const testUploadStreamId = (uploadId: string): string => `test_upload-${uploadId}`;

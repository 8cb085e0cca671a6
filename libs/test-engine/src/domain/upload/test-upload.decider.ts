import type { Decider } from '@switchyard/kernel';
import { executionCount, type RunColumns, sliceExecutionColumns } from './execution-columns';
import type { TestResultsRecorded, TestUploadEvent, UploadSource } from './test-upload.events';

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

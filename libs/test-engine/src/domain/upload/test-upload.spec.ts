import { DeciderSpecification } from '@switchyard/testing';
import { execution, runOn } from '../../testing/test-results-builder';
import { toExecutionColumns } from './execution-columns';
import { MAX_EXECUTIONS_PER_EVENT, type RecordTestResults, testUploadDecider } from './test-upload';

const spec = DeciderSpecification.for(testUploadDecider);
const run = runOn({ commitSha: 'c1' });
const many = Array.from({ length: MAX_EXECUTIONS_PER_EVENT + 1 }, (_, i) =>
  execution(`t${i}`, 'passed', '2026-05-01T00:00:00Z'),
);
const record: RecordTestResults = {
  type: 'RecordTestResults',
  repository: 'acme/app',
  uploadId: 'u1',
  source: 'otlp',
  receivedAt: '2026-05-01T00:00:01Z',
  runs: [{ run, executions: toExecutionColumns(many) }],
};
const part = (index: number, executions: typeof many) => ({
  type: 'test_results.recorded' as const,
  data: {
    repository: 'acme/app',
    uploadId: 'u1',
    source: 'otlp' as const,
    receivedAt: '2026-05-01T00:00:01Z',
    part: index,
    parts: 2,
    run,
    executions: toExecutionColumns(executions),
  },
});

describe('test upload decider', () => {
  it('records an upload as a few events, each carrying many executions', () => {
    spec
      .given([])
      .when(record)
      .then([
        part(0, many.slice(0, MAX_EXECUTIONS_PER_EVENT)),
        part(1, many.slice(MAX_EXECUTIONS_PER_EVENT)),
      ]);
  });

  it('records the same upload once', () => {
    spec
      .given([part(0, many.slice(0, 1))])
      .when(record)
      .thenNothingHappened();
  });
});

import { type INamespace, Root } from 'protobufjs';
import { DomainError } from '@switchyard/kernel';
import { otlpToTestResults } from './otlp-to-test-results';
import { decodeOtlpTraceRequest } from './otlp-trace-request';
import descriptor from './proto/otlp-trace.descriptor.json';

const requestType = Root.fromJSON(descriptor as INamespace).lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
);
const text = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number) => ({ key, value: { intValue: value } });
const TRACE = Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex');
const span = (id: string, name: string, attributes: object[], extra: object = {}) => ({
  traceId: TRACE,
  spanId: Buffer.from(id, 'hex'),
  name,
  startTimeUnixNano: '1778407200000000000',
  endTimeUnixNano: '1778407202000000000',
  attributes,
  ...extra,
});

function encode(scope: string, resource: object[], spans: object[]): Uint8Array {
  return requestType
    .encode(
      requestType.fromObject({
        resourceSpans: [
          { resource: { attributes: resource }, scopeSpans: [{ scope: { name: scope }, spans }] },
        ],
      }),
    )
    .finish();
}

const context = { defaultBranch: 'main', receivedAt: '2026-05-10T12:00:00.000Z' };

describe('OTLP upload to test results', () => {
  it('reads the CLI layout: cases only, resource attributes, job override, refs/heads stripped, 10× durations undone', () => {
    const body = encode(
      'mergify-cli',
      [
        text('cicd.pipeline.name', 'CI'),
        text('cicd.pipeline.task.name', 'matrix-job'),
        text('mergify.test.job.name', 'tests (3.12)'),
        int('cicd.pipeline.run.id', 123456),
        int('cicd.pipeline.run.attempt', 2),
        text('vcs.ref.head.revision', 'abc123'),
        text('vcs.ref.head.name', 'refs/heads/main'),
        text('test.run.id', '00f067aa0ba902b7'),
      ],
      [
        span('00f067aa0ba902b7', 'test session', [text('test.scope', 'session')]),
        span('00f067aa0ba902b8', 'suite', [text('test.scope', 'suite')]),
        span(
          '00f067aa0ba902b9',
          'pkg.Mod.test_a',
          [
            text('test.scope', 'case'),
            text('test.case.result.status', 'failed'),
            text('exception.type', 'AssertionError'),
            text('exception.message', 'boom'),
            text('code.filepath', 'pkg/mod.py'),
            text('code.lineno', '12'),
            text('test.framework', 'junit'),
            { key: 'cicd.test.quarantined', value: { boolValue: true } },
          ],
          { status: { code: 2 } },
        ),
      ],
    );
    const [results] = otlpToTestResults(decodeOtlpTraceRequest(body), context);
    expect(results!.run).toMatchObject({
      pipelineName: 'CI',
      jobName: 'tests (3.12)',
      runId: '123456',
      runAttempt: 2,
      commitSha: 'abc123',
      headRef: 'main',
      baseRef: null,
      framework: 'junit',
      testRunId: '00f067aa0ba902b7',
    });
    expect(results!.executions).toEqual([
      {
        traceId: TRACE.toString('hex'),
        spanId: '00f067aa0ba902b9',
        testName: 'pkg.Mod.test_a',
        conclusion: 'failed',
        finishedAt: '2026-05-10T10:00:02.000Z',
        durationMs: 200,
        quarantined: true,
        filepath: 'pkg/mod.py',
        functionName: null,
        exceptionType: 'AssertionError',
        exceptionMessage: 'boom',
        exceptionStacktrace: null,
      },
    ]);
  });

  it('falls back to the span status without a result attribute, and to unknown pipeline and job', () => {
    const body = encode(
      'pytest-mergify',
      [],
      [span('00000000000000a1', 'tests/a.py::t', [text('test.scope', 'case')], { status: { code: 2 } })],
    );
    const [results] = otlpToTestResults(decodeOtlpTraceRequest(body), context);
    expect(results!.run).toMatchObject({ pipelineName: 'unknown', jobName: 'unknown' });
    expect(results!.executions[0]).toMatchObject({ conclusion: 'failed', durationMs: 2000 });
  });

  it('refuses a case span with an empty span id, and bytes that are no OTLP message', () => {
    const body = encode('x', [], [span('', 'tests/a.py::t', [text('test.scope', 'case')])]);
    expect(() => otlpToTestResults(decodeOtlpTraceRequest(body), context)).toThrow(DomainError);
    expect(() => decodeOtlpTraceRequest(Buffer.from('definitely not protobuf'))).toThrow();
  });
});

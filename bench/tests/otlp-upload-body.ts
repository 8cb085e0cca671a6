import { gzipSync } from 'node:zlib';
import { type INamespace, Root } from 'protobufjs';
import descriptor from '../../libs/test-engine/src/ingestion/otlp/proto/otlp-trace.descriptor.json';

const requestType = Root.fromJSON(descriptor as INamespace).lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
);

export interface SyntheticCase {
  name: string;
  status: 'passed' | 'failed';
}

const attribute = (key: string, value: string | boolean) => ({
  key,
  value: typeof value === 'boolean' ? { boolValue: value } : { stringValue: value },
});

let spanSeq = 0;

/** A gzipped OTLP request like a reporter's for one job on one commit, cases with fresh span ids. */
export function otlpUploadBody(options: {
  sha: string;
  job: string;
  finishedAtMs: number;
  cases: readonly SyntheticCase[];
}): Buffer {
  const traceId = Buffer.alloc(16);
  traceId.writeUInt32BE(++spanSeq, 12);
  traceId.writeUInt32BE(process.pid, 0);
  const endNs = `${options.finishedAtMs}000000`;
  const startNs = `${options.finishedAtMs - 5}000000`;
  const spans = options.cases.map((testCase) => {
    const spanId = Buffer.alloc(8);
    spanId.writeUInt32BE(++spanSeq, 4);
    spanId.writeUInt32BE(process.pid, 0);
    return {
      traceId,
      spanId,
      name: testCase.name,
      kind: 1,
      startTimeUnixNano: startNs,
      endTimeUnixNano: endNs,
      attributes: [
        attribute('test.scope', 'case'),
        attribute('test.case.result.status', testCase.status),
        attribute('code.filepath', testCase.name.split('::')[0]!),
        attribute('cicd.test.quarantined', false),
        ...(testCase.status === 'failed'
          ? [
              attribute('exception.type', 'AssertionError'),
              attribute('exception.message', 'expected 1, got 2'),
            ]
          : []),
      ],
      status: { code: testCase.status === 'failed' ? 2 : 1 },
    };
  });
  const message = requestType.fromObject({
    resourceSpans: [
      {
        resource: {
          attributes: [
            attribute('cicd.pipeline.name', 'ci'),
            attribute('cicd.pipeline.task.name', options.job),
            attribute('vcs.ref.head.revision', options.sha),
            attribute('vcs.ref.head.name', 'main'),
            attribute('test.framework', 'pytest'),
          ],
        },
        scopeSpans: [{ scope: { name: 'pytest-mergify' }, spans }],
      },
    ],
  });
  return gzipSync(requestType.encode(message).finish());
}

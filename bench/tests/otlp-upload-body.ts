import { gzipSync } from 'node:zlib';
import {
  encodeOtlpTraceRequest,
  otlpAttribute as attribute,
} from '../../libs/test-engine/src/testing/otlp-trace-body';

export interface SyntheticCase {
  name: string;
  status: 'passed' | 'failed';
}

let spanSeq = 0;

const filepathOf = (testName: string): string => testName.split('::')[0]!;

/** What one test case span of an upload says, as the read model stores it. */
export interface UploadedSpan {
  traceId: string;
  spanId: string;
  name: string;
  status: SyntheticCase['status'];
  filepath: string;
  finishedAt: string;
  durationMs: number;
}

export const FAILURE = { type: 'AssertionError', message: 'expected 1, got 2' } as const;

interface UploadOptions {
  sha: string;
  job: string;
  finishedAtMs: number;
  cases: readonly SyntheticCase[];
}

/**
 * A gzipped OTLP request like a reporter's for one job on one commit, cases with fresh span ids,
 * and the spans it carries (for a baseline that stores the same rows).
 */
export function otlpUpload(options: UploadOptions): { body: Buffer; spans: UploadedSpan[] } {
  const traceId = Buffer.alloc(16);
  traceId.writeUInt32BE(++spanSeq, 12);
  traceId.writeUInt32BE(process.pid, 0);
  // Tests run one after another, each for its own time (a whole number of microseconds), and the
  // last one ends at finishedAtMs: every row gets its own finish and duration, as a reporter's do.
  const last = options.cases.length - 1;
  const endNs = (i: number) => BigInt(options.finishedAtMs) * 1_000_000n - BigInt(last - i) * 7_300_123n;
  const durationUs = (i: number) => 1_000 + ((i * 37) % 40) * 1_000 + 250;
  const spans = options.cases.map((testCase, i) => {
    const spanId = Buffer.alloc(8);
    spanId.writeUInt32BE(++spanSeq, 4);
    spanId.writeUInt32BE(process.pid, 0);
    return {
      traceId,
      spanId,
      name: testCase.name,
      kind: 1,
      startTimeUnixNano: String(endNs(i) - BigInt(durationUs(i)) * 1_000n),
      endTimeUnixNano: String(endNs(i)),
      attributes: [
        attribute('test.scope', 'case'),
        attribute('test.case.result.status', testCase.status),
        attribute('code.filepath', filepathOf(testCase.name)),
        attribute('cicd.test.quarantined', false),
        ...(testCase.status === 'failed'
          ? [attribute('exception.type', FAILURE.type), attribute('exception.message', FAILURE.message)]
          : []),
      ],
      status: { code: testCase.status === 'failed' ? 2 : 1 },
    };
  });
  const message = encodeOtlpTraceRequest({
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
  const uploaded = spans.map((span, index) => ({
    traceId: span.traceId.toString('hex'),
    spanId: span.spanId.toString('hex'),
    name: span.name,
    status: options.cases[index]!.status,
    filepath: filepathOf(span.name),
    finishedAt: new Date(Number(endNs(index) / 1_000_000n)).toISOString(),
    durationMs: durationUs(index) / 1000,
  }));
  return { body: gzipSync(message), spans: uploaded };
}

import { gzipSync } from 'node:zlib';
import { HttpException } from '@nestjs/common';
import { DomainError } from '@switchyard/kernel';
import { readOtlpUpload } from '../ingestion/otlp/read-otlp-upload';
import { MAX_UPLOAD_BYTES } from '../ingestion/upload-body';
import { encodeOtlpTraceRequest, otlpAttribute } from '../testing/otlp-trace-body';
import { OtlpUploadReader, WORKER_UPLOAD_BYTES } from './otlp-upload-reader';

/** A job's upload of `tests` passing test cases, each with ids of its own. */
function upload(tests: number): Buffer {
  const id = (bytes: number, n: number) => {
    const buffer = Buffer.alloc(bytes);
    buffer.writeUInt32BE(n + 1, bytes - 4);
    return buffer;
  };
  const spans = Array.from({ length: tests }, (_, i) => ({
    traceId: id(16, 0),
    spanId: id(8, i),
    name: `tests/test_${i}.py::test_${i}`,
    startTimeUnixNano: `${1_770_000_000_000 + i}000000`,
    endTimeUnixNano: `${1_770_000_000_001 + i}000000`,
    attributes: [otlpAttribute('test.scope', 'case'), otlpAttribute('test.case.result.status', 'passed')],
  }));
  return gzipSync(
    encodeOtlpTraceRequest({
      resourceSpans: [
        {
          resource: {
            attributes: [
              otlpAttribute('cicd.pipeline.name', 'ci'),
              otlpAttribute('vcs.ref.head.name', 'main'),
            ],
          },
          scopeSpans: [{ spans }],
        },
      ],
    }),
  );
}

describe('OtlpUploadReader', () => {
  const reader = new OtlpUploadReader();
  afterAll(() => reader.onModuleDestroy());
  const request = (body: Buffer) => ({
    repository: 'acme/app',
    body,
    contentEncoding: 'gzip',
    defaultBranch: 'main',
    receivedAt: '2026-05-01T00:00:00.000Z',
  });

  it('reads a large upload on a worker thread into what reading it in place gives', async () => {
    const body = upload(2_000);
    expect(body.length).toBeGreaterThanOrEqual(WORKER_UPLOAD_BYTES);
    const reading = await reader.read(request(body));
    expect(reading).toEqual(readOtlpUpload(request(body)));
    expect(reading.runs[0]!.executions.testName).toHaveLength(2_000);
  });

  it('reads a small upload in place', async () => {
    const body = upload(3);
    expect(body.length).toBeLessThan(WORKER_UPLOAD_BYTES);
    expect((await reader.read(request(body))).runs[0]!.executions.testName).toHaveLength(3);
  });

  it('refuses on the worker what it refuses in place: a body that is no OTLP request, one too large', async () => {
    const garbage = gzipSync(Buffer.alloc(64 * 1024, 0xff));
    const refusal = await reader.read(request(garbage)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ kind: 'bad_request' });
    expect((refusal as Error).message).toMatch(/not an OTLP ExportTraceServiceRequest/);

    const huge = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    const tooLarge = await reader.read(request(huge)).catch((error: unknown) => error);
    expect(tooLarge).toBeInstanceOf(HttpException);
    expect((tooLarge as HttpException).getStatus()).toBe(413);
  });
});

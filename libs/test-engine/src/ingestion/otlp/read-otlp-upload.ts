import { badRequest } from '@switchyard/kernel';
import { type RunColumns, toRunColumns } from '../../domain/upload/execution-columns';
import { inflateUpload } from '../upload-body';
import { uploadIdOf } from '../upload-id';
import { otlpToTestResults, type UploadContext } from './otlp-to-test-results';
import { decodeOtlpTraceRequest, type OtlpTraceRequest } from './otlp-trace-request';

export interface OtlpUploadRequest extends UploadContext {
  /** The repository's key: part of the upload's identity. */
  repository: string;
  body: Uint8Array;
  contentEncoding: string | undefined;
}

export interface OtlpUploadReading {
  runs: RunColumns[];
  /** uploadIdOf the inflated bytes. */
  uploadId: string;
}

/**
 * An OTLP upload's body to its test executions: inflate, decode, map, and the upload's id from its
 * bytes. Throws what the HTTP edge answers (400 for a body that is no OTLP request, 413 for one
 * too large). Pure and synchronous, so it may run on a worker thread (OtlpUploadReader).
 */
export function readOtlpUpload(request: OtlpUploadRequest): OtlpUploadReading {
  const bytes = inflateUpload(
    Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength),
    request.contentEncoding,
  );
  let decoded: OtlpTraceRequest;
  try {
    decoded = decodeOtlpTraceRequest(bytes);
  } catch (error) {
    throw badRequest(
      `The body is not an OTLP ExportTraceServiceRequest in protobuf: ${(error as Error).message}`,
    );
  }
  return {
    runs: toRunColumns(otlpToTestResults(decoded, request)),
    uploadId: uploadIdOf(request.repository, bytes),
  };
}

import { gunzipSync } from 'node:zlib';
import { PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import { badRequest } from '@switchyard/kernel';

/** The ingest cap the clients size their chunks for (ci-insights §1.1): 25 MiB gzipped. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/**
 * What an upload may inflate to. A run of 100,000 test cases is about 30 MiB of OTLP protobuf (and
 * its one event about 17 MB of JSON); the reporters split larger runs. A body that inflates past
 * this is refused with 413 once this much is inflated, on every upload route, before anything is
 * decoded: 64 MiB of zeros gzipped is 64 KiB on the wire, and decoding it would hold a worker and
 * hundreds of megabytes for nothing.
 */
export const MAX_INFLATED_UPLOAD_BYTES = 32 * 1024 * 1024;

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * The upload's bytes, gunzipped when the header says so or the gzip magic number starts it. Only
 * gzip is a content coding the reporters send: another answers 415.
 */
export function inflateUpload(body: Buffer, contentEncoding: string | undefined): Buffer {
  if (body.length > MAX_UPLOAD_BYTES) throw tooLarge();
  const codings = (contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.some((coding) => coding !== 'gzip' && coding !== 'x-gzip') || codings.length > 1)
    throw new UnsupportedMediaTypeException({
      detail: `Unsupported Content-Encoding: ${contentEncoding} (send gzip or nothing)`,
    });
  const gzipped = codings.length === 1 || (body[0] === GZIP_MAGIC[0] && body[1] === GZIP_MAGIC[1]);
  if (!gzipped) return body;
  try {
    return gunzipSync(body, { maxOutputLength: MAX_INFLATED_UPLOAD_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw inflatesTooLarge();
    throw badRequest('The body is not valid gzip');
  }
}

const tooLarge = () =>
  new PayloadTooLargeException({ detail: `The upload exceeds ${MAX_UPLOAD_BYTES} bytes (25 MiB gzipped)` });

const inflatesTooLarge = () =>
  new PayloadTooLargeException({
    detail: `The upload inflates past ${MAX_INFLATED_UPLOAD_BYTES} bytes (32 MiB); split the run into smaller uploads`,
  });

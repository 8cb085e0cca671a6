import { gunzipSync } from 'node:zlib';
import { PayloadTooLargeException } from '@nestjs/common';
import { badRequest } from '@switchyard/kernel';

/** The ingest cap the clients size their chunks for (ci-insights §1.1): 25 MiB gzipped. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** Protobuf compresses about 5–20×; a body inflating past this is a zip bomb, not a CI run. */
export const MAX_INFLATED_UPLOAD_BYTES = 512 * 1024 * 1024;

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** The upload's bytes, gunzipped when the header says so or the gzip magic number starts it. */
export function inflateUpload(body: Buffer, contentEncoding: string | undefined): Buffer {
  if (body.length > MAX_UPLOAD_BYTES) throw tooLarge();
  const gzipped =
    /\bgzip\b/i.test(contentEncoding ?? '') || (body[0] === GZIP_MAGIC[0] && body[1] === GZIP_MAGIC[1]);
  if (!gzipped) return body;
  try {
    return gunzipSync(body, { maxOutputLength: MAX_INFLATED_UPLOAD_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw badRequest('The body is not valid gzip');
  }
}

const tooLarge = () =>
  new PayloadTooLargeException({ detail: `The upload exceeds ${MAX_UPLOAD_BYTES} bytes (25 MiB gzipped)` });

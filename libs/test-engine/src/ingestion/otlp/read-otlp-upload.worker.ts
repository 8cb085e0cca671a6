import { HttpException } from '@nestjs/common';
import { DomainError } from '@switchyard/kernel';
import { type OtlpUploadReading, type OtlpUploadRequest, readOtlpUpload } from './read-otlp-upload';

/** What crosses back from the worker: the reading, or the refusal to rethrow on the caller's side. */
export type WorkerAnswer =
  | { ok: true; reading: OtlpUploadReading }
  | { ok: false; refusal: { kind: 'domain'; domainKind: DomainError['kind']; message: string } }
  | { ok: false; refusal: { kind: 'http'; status: number; response: string | object } };

/** Piscina's task: errors become data, since an Error loses its class on the way back. */
export default function readOtlpUploadTask(request: OtlpUploadRequest): WorkerAnswer {
  try {
    return { ok: true, reading: readOtlpUpload(request) };
  } catch (error) {
    if (error instanceof DomainError)
      return { ok: false, refusal: { kind: 'domain', domainKind: error.kind, message: error.message } };
    if (error instanceof HttpException)
      return {
        ok: false,
        refusal: { kind: 'http', status: error.getStatus(), response: error.getResponse() },
      };
    throw error;
  }
}

/** The caller's side: the reading, or the same refusal the worker caught. */
export function readingOf(answer: WorkerAnswer): OtlpUploadReading {
  if (answer.ok) return answer.reading;
  const { refusal } = answer;
  if (refusal.kind === 'domain') throw new DomainError(refusal.domainKind, refusal.message);
  throw new HttpException(refusal.response, refusal.status);
}

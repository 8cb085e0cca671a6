import { CodeHostError, type CodeHostErrorKind } from '@switchyard/code-host';

interface HttpFailure {
  status: number;
  message: string;
}

const isHttpFailure = (error: unknown): error is HttpFailure =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as { status?: unknown }).status === 'number' &&
  typeof (error as { message?: unknown }).message === 'string';

/**
 * GitHub's statuses in port terms. `mergeFailureKind` lets an operation say what a 405 or 422
 * means for it (a merge refused is `not-mergeable`; a 422 on a ref means the ref exists).
 */
export function toCodeHostError(
  error: unknown,
  what: string,
  overrides: Partial<Record<number, CodeHostErrorKind>> = {},
): CodeHostError {
  if (error instanceof CodeHostError) return error;
  if (!isHttpFailure(error)) {
    return new CodeHostError('unavailable', `${what}: ${(error as Error)?.message ?? String(error)}`);
  }
  const kind = overrides[error.status] ?? defaultKind(error.status);
  return new CodeHostError(kind, `${what}: ${error.message}`, error.status);
}

function defaultKind(status: number): CodeHostErrorKind {
  if (status === 404 || status === 410) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 405) return 'not-mergeable';
  if (status === 401 || status === 403) return 'forbidden';
  if (status === 400 || status === 422) return 'invalid';
  return 'unavailable';
}

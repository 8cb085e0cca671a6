import { HttpException, HttpStatus } from '@nestjs/common';
import { WrongExpectedRevisionError } from '@switchyard/event-store';
import { DomainError } from '@switchyard/kernel';
import { ReadModelStoppedError } from '@switchyard/projection';
import { JsonBodyDecodeError } from '../body/json-body-decode.error';
import { JsonBodyReservedKeyError } from '../body/json-body-reserved-key.error';
import { JsonBodyTooDeepError } from '../body/json-body-too-deep.error';
import { DOMAIN_ERROR_STATUS } from './domain-error-status';

export interface ErrorResponse {
  status: number;
  body: { detail: unknown };
  /** A fault of ours rather than of the request: logged with its stack. */
  unexpected: boolean;
  /** Extra response headers (Retry-After on a 503). */
  headers?: Record<string, string>;
}

export const NOT_FOUND_DETAIL = 'Not Found';
export const INTERNAL_ERROR_DETAIL = 'Internal Server Error';
export const CONCURRENT_MODIFICATION_DETAIL =
  'The resource was modified concurrently and the change could not be applied; retry the request';

/**
 * Every error becomes `{"detail": …}` (client-contract §0.3): a string for everything the CLI should
 * print, the FastAPI issue list for request validation. Pure, so each case is tested without HTTP.
 */
export function errorResponseFor(exception: unknown, context: { routeMatched: boolean }): ErrorResponse {
  if (exception instanceof JsonBodyDecodeError) {
    const issue = {
      type: 'json_invalid',
      loc: ['body', exception.position],
      msg: 'JSON decode error',
      input: {},
      ctx: { error: exception.reason },
    };
    return expected(HttpStatus.UNPROCESSABLE_ENTITY, [issue]);
  }
  if (exception instanceof JsonBodyTooDeepError || exception instanceof JsonBodyReservedKeyError) {
    return expected(HttpStatus.BAD_REQUEST, exception.message);
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // Nest answers unmatched routes with "Cannot GET /x"; FastAPI says "Not Found".
    if (status === HttpStatus.NOT_FOUND && !context.routeMatched) return expected(status, NOT_FOUND_DETAIL);
    return expected(status, detailOf(exception));
  }
  if (exception instanceof DomainError)
    return expected(DOMAIN_ERROR_STATUS[exception.kind], exception.message);
  // Refused before anything was written: the caller may retry once the read model runs again.
  if (exception instanceof ReadModelStoppedError) {
    return {
      ...expected(HttpStatus.SERVICE_UNAVAILABLE, exception.message),
      headers: { 'retry-after': String(exception.retryAfterSeconds) },
    };
  }
  // The command service retries conflicts; reaching here means it gave up.
  if (exception instanceof WrongExpectedRevisionError) {
    return expected(HttpStatus.CONFLICT, CONCURRENT_MODIFICATION_DETAIL);
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { detail: INTERNAL_ERROR_DETAIL },
    unexpected: true,
  };
}

const expected = (status: number, detail: unknown): ErrorResponse => ({
  status,
  body: { detail },
  unexpected: false,
});

function detailOf(exception: HttpException): unknown {
  const response = exception.getResponse();
  if (typeof response === 'object' && response !== null && 'detail' in response) {
    return (response as { detail: unknown }).detail;
  }
  return exception.message;
}

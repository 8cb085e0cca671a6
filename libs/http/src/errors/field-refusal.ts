import { InvalidFieldError } from '@switchyard/kernel';
import type { FastifyRequest } from 'fastify';
import { issueShapes } from '../validation/issue-shapes';
import { issueAt, RequestValidationException } from '../validation/validation-issue';

/**
 * A decider refuses what the DTOs cannot judge alone (a start that leaves the storable range once
 * read in the freeze's timezone, possibly the one already recorded) as an InvalidFieldError naming
 * the field. The edge answers it as the FastAPI 422 a DTO rule would have given, pointing at that
 * field in the path when the route has such a parameter, else in the body. Done in the global
 * filter rather than a per-route interceptor, so the request path pays nothing for it.
 */
export function asFieldRefusal(exception: unknown, request: FastifyRequest): unknown {
  if (!(exception instanceof InvalidFieldError)) return exception;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const inPath = Object.hasOwn(params, exception.field);
  const source = (inPath ? params : request.body) as Record<string, unknown> | null | undefined;
  const input = source && typeof source === 'object' ? source[exception.field] : undefined;
  const issue = issueAt(
    [inPath ? 'path' : 'body', exception.field],
    input,
    issueShapes.valueError(exception.message),
  );
  return new RequestValidationException([issue]);
}

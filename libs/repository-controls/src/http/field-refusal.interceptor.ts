import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { issueAt, issueShapes, RequestValidationException } from '@switchyard/http';
import { InvalidFieldError } from '@switchyard/kernel';
import type { FastifyRequest } from 'fastify';
import { catchError, type Observable, throwError } from 'rxjs';

/** Fields the deciders name that come from the path rather than the body. */
const PATH_FIELDS = new Set(['repository']);

/**
 * The deciders refuse what the DTOs cannot judge alone (a start that leaves the storable range once
 * read in the freeze's timezone, possibly the one already recorded) as an InvalidFieldError naming
 * the field; this answers it as the FastAPI 422 a DTO rule would have given, pointing at that field.
 */
@Injectable()
export class FieldRefusalInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (!(error instanceof InvalidFieldError)) return throwError(() => error);
        const request = context.switchToHttp().getRequest<FastifyRequest>();
        const location = PATH_FIELDS.has(error.field) ? 'path' : 'body';
        const source = (location === 'path' ? request.params : request.body) as Record<
          string,
          unknown
        > | null;
        const input = source?.[error.field];
        const issue = issueAt([location, error.field], input, issueShapes.valueError(error.message));
        return throwError(() => new RequestValidationException([issue]));
      }),
    );
  }
}

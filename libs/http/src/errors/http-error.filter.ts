import { Catch, HttpStatus, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponseFor } from './error-response';
import { asFieldRefusal } from './field-refusal';

/** Headers that make the Mergify CLI retry a 403 (client-contract §1.1); never on a refusal. */
const RETRY_HEADERS = /^(retry-after|x-ratelimit-.*)$/i;

/**
 * The one global filter: maps any error to `{"detail": …}` with the right status, logs unexpected
 * errors with the request id (through the request's own logger, which carries `reqId`), and answers
 * 500 with a fixed message so internals never leak.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const response = errorResponseFor(asFieldRefusal(exception, request), { routeMatched: !request.is404 });

    if (response.unexpected) {
      request.log.error(
        { err: exception, requestId: request.id },
        'Unhandled error while serving the request',
      );
    }
    if (reply.sent) return;
    if (response.status === HttpStatus.FORBIDDEN) {
      for (const name of Object.keys(reply.getHeaders()))
        if (RETRY_HEADERS.test(name)) reply.removeHeader(name);
    }
    for (const [name, value] of Object.entries(response.headers ?? {})) void reply.header(name, value);
    void reply.status(response.status).type('application/json; charset=utf-8').send(response.body);
  }
}

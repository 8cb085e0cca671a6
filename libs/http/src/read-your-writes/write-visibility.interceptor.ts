import { HttpStatus, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { recordingWriteVisibility, WriteVisibility } from '@switchyard/projection';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const notYetVisibleDetail = (readModels: readonly string[]): string =>
  `The change is stored and will take effect, but reads do not show it yet: ${readModels.join(', ')} ` +
  'had not caught up when this answer was due. Do not send it again.';

/**
 * How a write answers when its read-your-writes wait ends before the read models include it: 202
 * Accepted instead of 200, 201 or 204. The change is stored (appended and durable) and will show,
 * so a 5xx would be untrue, and the CLI retries a 5xx, non-idempotent POSTs included (a second
 * freeze); a 200 would be untrue too, since the next read may not show it. The body is the one the
 * success would carry, which the write computed from its own events, not from a read model; a write
 * whose success has no body gets `{"detail"}` saying so. Reads are not touched.
 */
export class WriteVisibilityInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    if (READ_METHODS.has(http.getRequest<FastifyRequest>().method)) return next.handle();
    const visibility = new WriteVisibility();
    return recordingWriteVisibility(visibility, () => next.handle()).pipe(
      map((body: unknown) => {
        const lagging = visibility.notYetVisibleIn;
        if (lagging.length === 0) return body;
        void http.getResponse<FastifyReply>().status(HttpStatus.ACCEPTED);
        return body === undefined || body === null ? { detail: notYetVisibleDetail(lagging) } : body;
      }),
    );
  }
}

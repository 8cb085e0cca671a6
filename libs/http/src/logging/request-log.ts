import { createRequire } from 'node:module';
import type { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/**
 * Fastify accepts a log controller only of its own class (instanceof), so this one comes from the
 * copy of Fastify that Nest's adapter loads, which npm may install apart from ours.
 */
type AdapterOptions = Extract<ConstructorParameters<typeof FastifyAdapter>[0], { logController?: unknown }>;
type AdapterLogController = NonNullable<AdapterOptions['logController']>;
const adapterFastify = createRequire(require.resolve('@nestjs/platform-fastify'))('fastify') as {
  LogController: new (options: { disableRequestLogging: boolean }) => AdapterLogController;
};

/** Turns off Fastify's own request lines (the `logController` server option); see logCompletedRequests. */
export const withoutFastifyRequestLogs = (): AdapterLogController =>
  new adapterFastify.LogController({ disableRequestLogging: true });

/** What orchestrators poll every few seconds: a line for each would bury the requests that matter. */
const PROBE_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** The message of a request's line. */
export const REQUEST_COMPLETED = 'request completed';

export interface RequestLogOptions {
  /**
   * URL prefixes of traffic between machines (the sandbox forge's API, webhook deliveries): a
   * request there that succeeds gets its line at debug, where it does not bury a person's own
   * requests; one that fails (status 400 and above) gets it at info, as every other request does.
   */
  quietPrefixes?: readonly string[];
}

/**
 * One info line per request, once answered (method, url, status, time), in place of Fastify's two
 * (incoming and completed, turned off by withoutFastifyRequestLogs): writing log lines was the
 * largest cost of a cheap request in the profile. Probes are logged only when they fail, and
 * machine traffic that succeeds at debug (RequestLogOptions.quietPrefixes).
 *
 * The fields are flat strings and numbers, not the request and reply themselves: handing pino
 * those runs Fastify's serializers and the redaction walk over two objects on every request, which
 * cost a cheap GET 10–20 µs of its 70 µs of CPU under load (bench:http). For the same reason the
 * line comes from one logger made here, with the request id as its `reqId` field, rather than
 * from the request's own child logger (made lazily, see LazyRequestLogger), and without redaction:
 * its fields are known flat values that no redact path names, and redaction walks every line.
 */
export function logCompletedRequests(fastify: FastifyInstance, options: RequestLogOptions = {}): void {
  const access = fastify.log.child({}, { redact: [] });
  const quietPrefixes = options.quietPrefixes ?? [];
  fastify.addHook('onResponse', (request, reply, done) => {
    const failed = reply.statusCode >= 400;
    if (failed || !PROBE_ROUTES.has(request.routeOptions.url ?? '')) {
      const quiet = !failed && quietPrefixes.some((prefix) => request.url.startsWith(prefix));
      access[quiet ? 'debug' : 'info'](
        {
          reqId: request.id,
          method: request.method,
          url: request.url,
          statusCode: reply.statusCode,
          responseTime: reply.elapsedTime,
        },
        REQUEST_COMPLETED,
      );
    }
    done();
  });
}

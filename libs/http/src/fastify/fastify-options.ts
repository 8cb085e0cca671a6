import type { Logger } from 'pino';
import type { HttpSettings } from '../http-settings';
import { lazyChildLogger } from '../logging/lazy-request-logger';
import { genReqId } from '../logging/request-id';
import { withoutFastifyRequestLogs } from '../logging/request-log';
import { answerClientError, answerFrameworkError } from './framework-errors';

/**
 * Bodies are bounded in characters by the spec (mergify_yml up to 1,048,576), and JSON escaping can
 * take up to six bytes per character (`\uXXXX`), so Fastify's 1 MiB default would refuse valid
 * simulator requests.
 */
export const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * The router refuses longer path parameters before any handler sees them. Ours are bounded lower
 * (repository names: 100 characters), but percent-encoding can triple a name; above that limit the
 * handler's own validation answers 422 naming the parameter, as FastAPI does.
 */
export const MAX_PATH_PARAMETER_LENGTH = 1024;

/**
 * Fastify server options (also accepted by `new FastifyAdapter(...)`). Left to inference on purpose:
 * Nest's adapter ships its own copy of Fastify's types, and naming either one breaks the other.
 */
export function fastifyServerOptions(settings: Pick<HttpSettings, 'trustProxy'>, logger: Logger) {
  return {
    loggerInstance: logger,
    genReqId,
    // Fastify's own header lookup would take any value; genReqId applies our sanity check.
    requestIdHeader: false as const,
    // One line per request instead, from logCompletedRequests (configureHttpApp).
    logController: withoutFastifyRequestLogs(),
    // request.log is made on first use: most requests never log through it.
    childLoggerFactory: lazyChildLogger,
    trustProxy: settings.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // No Nest middleware anywhere: without this, Nest's adapter registers @fastify/middie, whose
    // onRequest hook then runs an empty middleware chain on every request.
    skipMiddie: true,
  };
}

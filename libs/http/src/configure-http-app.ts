import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { HttpErrorFilter } from './errors/http-error.filter';
import { logCompletedRequests } from './logging/request-log';
import { REQUEST_ID_HEADER } from './logging/request-id';
import { setupOpenApi } from './openapi/setup-openapi';
import { WriteVisibilityInterceptor } from './read-your-writes/write-visibility.interceptor';
import { assertRequestParametersValidated } from './validation/assert-request-parameters-validated';

export interface ConfigureHttpAppOptions {
  /** The OpenAPI document's info.version (the package version). */
  version: string;
  /** Serve GET /v1/openapi.json (default true). */
  openApi?: boolean;
  /** URL prefixes of machine traffic whose successful requests are logged at debug (RequestLogOptions). */
  quietRequestPrefixes?: readonly string[];
}

/**
 * Everything an HTTP app needs from libs/http, in one call between NestFactory.create (with
 * createHttpAdapter) and listen: the check that every request parameter is validated, the error
 * filter, the 202 of a write its read models do not show yet, the request-id response header and
 * the OpenAPI document. Authentication comes from
 * importing AuthModule (libs/auth), which installs its global guard.
 */
export function configureHttpApp(app: INestApplication, options: ConfigureHttpAppOptions): void {
  assertRequestParametersValidated(app);
  app.useGlobalFilters(new HttpErrorFilter());
  app.useGlobalInterceptors(new WriteVisibilityInterceptor());
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  // onRequest runs before routing, so 404s and body-parser errors carry the id too.
  // A callback hook: an async one costs a promise on every request.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  logCompletedRequests(fastify, { quietPrefixes: options.quietRequestPrefixes ?? [] });
  if (options.openApi ?? true) setupOpenApi(app, { version: options.version });
}

import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { SECURITY_SCHEMES, type SecuritySchemeName } from './security-schemes';

export const OPENAPI_PATH = '/v1/openapi.json';

export interface OpenApiOptions {
  version: string;
}

export function buildOpenApiDocument(app: INestApplication, options: OpenApiOptions): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Switchyard')
    .setDescription("Self-hosted merge automation serving Mergify's public v1 API.")
    .setVersion(options.version);
  for (const name of Object.keys(SECURITY_SCHEMES) as SecuritySchemeName[]) {
    builder.addBearerAuth({ type: 'http', scheme: 'bearer', description: SECURITY_SCHEMES[name] }, name);
  }
  return SwaggerModule.createDocument(app, builder.build());
}

/**
 * Serves the document as JSON at GET /v1/openapi.json, straight on Fastify: no auth (it lists
 * routes, not data) and no Swagger UI assets. Built lazily on the first request, once every module
 * has registered its routes, then kept.
 */
export function setupOpenApi(app: INestApplication, options: OpenApiOptions): void {
  let document: OpenAPIObject | undefined;
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.get(OPENAPI_PATH, async (_request, reply) => {
    document ??= buildOpenApiDocument(app, options);
    return reply.type('application/json; charset=utf-8').send(document);
  });
}

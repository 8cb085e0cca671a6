import { UnsupportedMediaTypeException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../ingestion/upload-body';

/** Route config (`@RouteConfig(ACCEPTS_TEST_UPLOADS)`) of the routes that take raw upload bodies. */
export const ACCEPTS_TEST_UPLOADS = { acceptsTestUploads: true } as const;

const UPLOAD_CONTENT_TYPES = [
  'application/x-protobuf',
  'application/protobuf',
  'application/xml',
  'text/xml',
];

/**
 * Protobuf and XML bodies reach the upload routes as raw bytes (up to the 25 MiB gzipped cap,
 * above Fastify's JSON limit); every other route keeps refusing those media types with 415.
 */
export function registerUploadBodyParsers(fastify: FastifyInstance): void {
  if (fastify.hasContentTypeParser('application/x-protobuf')) return;
  fastify.addContentTypeParser(
    UPLOAD_CONTENT_TYPES,
    { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
    (request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: unknown) => void) => {
      const config = request.routeOptions.config as { acceptsTestUploads?: boolean } | undefined;
      // An unknown path answers 404, not 415: the router decides before the media type matters.
      if (config?.acceptsTestUploads || request.is404) done(null, body);
      else
        done(
          new UnsupportedMediaTypeException({
            detail: `Unsupported media type: ${request.headers['content-type']}`,
          }),
        );
    },
  );
}

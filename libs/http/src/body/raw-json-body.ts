import { RouteConfig } from '@nestjs/platform-fastify';

const RAW_JSON_BODY = 'rawJsonBody';

/**
 * Marks a route whose JSON body must reach the handler as the bytes that were sent (a Buffer),
 * unparsed: signatures (GitHub's X-Hub-Signature-256) are computed over the raw body, and checking
 * one must come before any parsing or refusal of what it signs. Every other route keeps the
 * standard JSON parser.
 */
export const RawJsonBody = (): MethodDecorator => RouteConfig({ [RAW_JSON_BODY]: true });

export function wantsRawJsonBody(request: unknown): boolean {
  const config = (request as { routeOptions?: { config?: Record<string, unknown> } }).routeOptions?.config;
  return config?.[RAW_JSON_BODY] === true;
}

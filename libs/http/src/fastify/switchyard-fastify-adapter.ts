import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { createJsonBodyParser } from '../body/json-body-parser';
import type { HttpSettings } from '../http-settings';
import { fastifyServerOptions } from './fastify-options';

const JSON_CONTENT_TYPE = 'application/json';

/**
 * Nest's Fastify adapter with our JSON body parser (empty body = no body; malformed JSON = 422 with
 * the offset). Nest installs its JSON parser during app.init() and Fastify refuses a second
 * replacement of the built-in one, so ours swaps Nest's right after it is installed.
 */
export class SwitchyardFastifyAdapter extends FastifyAdapter {
  private jsonParserReplaced = false;

  override registerParserMiddleware(prefix?: string, rawBody?: boolean): void {
    super.registerParserMiddleware(prefix, rawBody);
    if (this.jsonParserReplaced) return;
    const instance = this.getInstance();
    const parse = createJsonBodyParser(instance);
    instance.removeContentTypeParser(JSON_CONTENT_TYPE);
    this.useBodyParser(JSON_CONTENT_TYPE, !!rawBody, { bodyLimit: instance.initialConfig.bodyLimit }, parse);
    this.jsonParserReplaced = true;
  }
}

export const createHttpAdapter = (
  settings: Pick<HttpSettings, 'trustProxy'>,
  logger: Logger,
): SwitchyardFastifyAdapter => new SwitchyardFastifyAdapter(fastifyServerOptions(settings, logger));

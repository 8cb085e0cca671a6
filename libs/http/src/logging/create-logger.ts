import pino, { type DestinationStream, type Logger } from 'pino';
import type { HttpSettings } from '../http-settings';

/**
 * The process logger: JSON lines on stdout, level from configuration. Credentials never reach a
 * log line: Fastify's request serializer leaves headers out, and these paths are redacted in case
 * someone logs a request object by hand.
 */
export function createLogger(
  settings: Pick<HttpSettings, 'logLevel'>,
  destination?: DestinationStream,
): Logger {
  const options = {
    level: settings.logLevel,
    base: { service: 'switchyard' },
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', '*.secret', 'secret'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

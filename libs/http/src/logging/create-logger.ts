import pino, { type DestinationStream, type Logger } from 'pino';
import type { HttpSettings } from '../http-settings';

/**
 * The process logger: JSON lines on stdout, level from configuration. Credentials never reach a
 * log line: Fastify's request serializer leaves headers out, and these paths are redacted in case
 * someone logs a request object by hand.
 *
 * Stdout is written asynchronously: lines logged while a write is under way go out together in the
 * next one, instead of one blocking write per request line (a system call per request was a good
 * part of a cheap GET's cost under load). pino flushes what is left when the process exits.
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
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}

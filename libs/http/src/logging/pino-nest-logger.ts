import type { LoggerService, LogLevel } from '@nestjs/common';
import type { Logger } from 'pino';

/** The contexts of Nest's start-up lines (about 160 of them for our modules and routes). */
const NEST_START_UP: ReadonlySet<string> = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Nest's own messages (module init, route mapping, errors from its internals) as structured pino
 * lines. Nest passes the context as the last string argument and, for errors, a stack before it.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  /** Nest's narration of a start (modules loaded, each route mapped, started) is at debug: ours says it is listening. */
  log(message: unknown, ...optional: unknown[]): void {
    const context = optional[optional.length - 1];
    this.write(
      typeof context === 'string' && NEST_START_UP.has(context) ? 'debug' : 'info',
      message,
      optional,
    );
  }

  error(message: unknown, ...optional: unknown[]): void {
    this.write('error', message, optional);
  }

  warn(message: unknown, ...optional: unknown[]): void {
    this.write('warn', message, optional);
  }

  debug(message: unknown, ...optional: unknown[]): void {
    this.write('debug', message, optional);
  }

  verbose(message: unknown, ...optional: unknown[]): void {
    this.write('trace', message, optional);
  }

  fatal(message: unknown, ...optional: unknown[]): void {
    this.write('fatal', message, optional);
  }

  /** Levels are pino's business; Nest's filter would only hide lines pino already filters. */
  setLogLevels(_levels: LogLevel[]): void {}

  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    optional: unknown[],
  ) {
    const rest = [...optional];
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const stack = level === 'error' && typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (stack) fields.stack = stack;
    if (rest.length > 0) fields.details = rest;
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as object) });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}

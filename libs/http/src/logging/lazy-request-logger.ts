import { levels, type Bindings, type ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogMethod = (...args: unknown[]) => void;

/** What this needs of a logger: a pino logger, or Fastify's view of one (either copy's types). */
export interface ParentLogger {
  level: string;
  child(bindings: Bindings, options?: ChildLoggerOptions): ChildLogger;
}
type ChildLogger = ParentLogger & Record<Level | 'silent', LogMethod>;

/**
 * `request.log`: the request's child logger (bound to its `reqId`), made only when something logs
 * through it. Fastify makes one for every request, and building a pino child (its bindings as JSON,
 * its formatters) was a measurable part of a cheap GET, though a request that goes well logs
 * nothing through it: its access line comes from logCompletedRequests. Methods live on the
 * prototype, so a request that never logs costs one small object.
 */
export class LazyRequestLogger {
  private made: ChildLogger | undefined;

  constructor(
    private readonly parent: ParentLogger,
    private readonly childBindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The real child logger, made on first use. */
  private get logger(): ChildLogger {
    return (this.made ??= this.parent.child(this.childBindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  /** pino's `silent` writes nothing. */
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): ChildLogger {
    return this.logger.child(bindings, options) as ChildLogger;
  }

  private write(level: Level, args: unknown[]): void {
    // A line below the level needs no child (pino drops it too).
    if (!this.made && !enabled(level, this.level)) return;
    this.logger[level](...args);
  }
}

/** Whether `level` passes a logger set to `threshold`; a level pino does not list is left to the child. */
const enabled = (level: Level, threshold: string): boolean => {
  if (threshold === 'silent') return false;
  const bound = levels.values[threshold];
  return bound === undefined || levels.values[level]! >= bound;
};

/** Fastify's `childLoggerFactory` server option: request loggers made on first use. */
export const lazyChildLogger = (
  logger: ParentLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): LazyRequestLogger => new LazyRequestLogger(logger, bindings, options);

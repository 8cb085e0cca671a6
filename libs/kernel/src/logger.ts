/**
 * What code that logs asks of a logger, in pino's argument order (context first), so the apps hand
 * over their pino logger as it is. A part that needs less takes `Pick<Logger, 'warn'>`.
 */
export interface Logger {
  /** Routine detail; loggers without a debug level drop it. */
  debug?(context: Record<string, unknown>, message: string): void;
  info(context: Record<string, unknown>, message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
  error(context: Record<string, unknown>, message: string): void;
}

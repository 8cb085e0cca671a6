/**
 * What the projection machinery logs through. The argument order is pino's (context first), so the
 * apps can hand over their pino logger as it is.
 */
export interface ProjectionLogger {
  /** Routine detail; loggers without a debug level drop it. */
  debug?(context: Record<string, unknown>, message: string): void;
  info(context: Record<string, unknown>, message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
  error(context: Record<string, unknown>, message: string): void;
}

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

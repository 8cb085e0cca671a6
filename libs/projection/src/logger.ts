import type { Logger } from '@switchyard/kernel';

/** What the projection machinery logs through: the one Logger. */
export type ProjectionLogger = Logger;

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

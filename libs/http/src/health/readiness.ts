/**
 * Something /readyz asks before it answers 200. The built-in checks cover the read-model database
 * and the event store; apps add more (projection lag…) by providing READINESS_CONTRIBUTORS.
 */
export interface ReadinessContributor {
  readonly name: string;
  /**
   * Resolves when ready, optionally with details for the report (processor positions…); rejects
   * with a human message when not, and with NotReadyError to keep details in the report too.
   */
  check(): Promise<ReadinessDetails | void>;
}

export type ReadinessDetails = Record<string, unknown>;

export class NotReadyError extends Error {
  constructor(
    message: string,
    readonly details: ReadinessDetails,
  ) {
    super(message);
    this.name = 'NotReadyError';
  }
}

export const READINESS_CONTRIBUTORS = Symbol('READINESS_CONTRIBUTORS');

export interface ReadinessReport {
  ready: boolean;
  checks: Array<{ name: string; ok: boolean; error?: string; details?: ReadinessDetails }>;
}

/** A hung dependency must not hang the probe: the orchestrator needs an answer to act on. */
export const READINESS_CHECK_TIMEOUT_MS = 2000;

export async function runReadinessChecks(
  contributors: readonly ReadinessContributor[],
  timeoutMs = READINESS_CHECK_TIMEOUT_MS,
): Promise<ReadinessReport> {
  const checks = await Promise.all(
    contributors.map(async (contributor) => {
      try {
        const details = await withTimeout(contributor.check(), timeoutMs);
        return { name: contributor.name, ok: true, ...(details ? { details } : {}) };
      } catch (error) {
        return {
          name: contributor.name,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
          ...(error instanceof NotReadyError ? { details: error.details } : {}),
        };
      }
    }),
  );
  return { ready: checks.every((check) => check.ok), checks };
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

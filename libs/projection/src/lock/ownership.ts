import type { SqlExecutor } from '@switchyard/sql';
import { acquireProjectionLock } from './projection-lock';

/**
 * The right to run a processor, held by one process at a time. A session lock is held until it
 * is released; a lease can also be lost (it expired unrenewed, or someone else holds it now), and
 * then its holder must stop acting at once.
 */
export interface Ownership {
  /** Aborted as soon as ownership is known to be lost; a session lock never aborts it. */
  readonly lost: AbortSignal;
  /**
   * Whether this process may still act. Checked before each side effect (fencing): false once
   * lost, and as soon as the lease may have run out without a confirmed renewal.
   */
  held(): boolean;
  /** Gives it up (a lease is deleted only while it is still ours). */
  release(): Promise<void>;
}

/** Where a runner gets its ownership from: a PostgreSQL advisory lock, or a Redis lease. */
export interface OwnershipSource {
  /** What the logs call it. */
  readonly kind: string;
  /** The ownership of `name`, or null while someone else holds it. */
  tryAcquire(name: string): Promise<Ownership | null>;
}

/** Thrown by a fenced action once its reactor no longer owns its work. */
export class OwnershipLostError extends Error {
  constructor(processor: string) {
    super(`${processor} no longer owns its work (its lease was lost): the action was not performed`);
    this.name = 'OwnershipLostError';
  }
}

const ADVISORY_LOCK = 'advisory lock';

/**
 * Whether taking ownership is worth an info line. A lock taken at once by the only process there is
 * is routine (an all-in-one would print one line per processor); one taken after waiting, after
 * a loss, or from leases shared among engines tells an operator where the work now runs.
 */
export function ownershipIsNews(source: OwnershipSource, waited: boolean): boolean {
  return waited || source.kind !== ADVISORY_LOCK;
}

/**
 * The default: a session lock per processor (pg_try_advisory_lock on PostgreSQL, an in-process
 * guard on PGlite), held until released or until the session ends.
 */
export function advisoryLockOwnership(executor: SqlExecutor): OwnershipSource {
  return {
    kind: ADVISORY_LOCK,
    async tryAcquire(name) {
      const release = await acquireProjectionLock(executor, name);
      if (!release) return null;
      let released = false;
      return {
        lost: new AbortController().signal,
        held: () => !released,
        async release() {
          if (released) return;
          released = true;
          await release();
        },
      };
    },
  };
}

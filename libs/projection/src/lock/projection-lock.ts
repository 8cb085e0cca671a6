import type { SqlExecutor } from '@switchyard/sql';

/**
 * One runner per projection across every process: a session lock named after the projection
 * (on PostgreSQL pg_try_advisory_lock(hashtext('sy_projection:' || name)); on PGlite, whose
 * single process is alone, an in-process guard). Null when someone else holds it.
 */
export const acquireProjectionLock = (
  executor: SqlExecutor,
  projection: string,
): Promise<(() => Promise<void>) | null> => executor.acquireSessionLock(`sy_projection:${projection}`);

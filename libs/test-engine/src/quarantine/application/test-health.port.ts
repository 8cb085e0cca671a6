import type { SqlQueryable } from '@switchyard/sql';
import type { IdentityHealth } from '../domain/quarantine-scope';

/**
 * The test engine's answer to "how healthy is this test on the default branch now": one entry per
 * identity (pipeline, job) with recent default-branch runs; a test missing from the map has none.
 * Quarantines read it for health_status, is_recovered and their events' health_status_at_event.
 */
export type ReadTestHealth = (
  sql: SqlQueryable,
  repository: string,
  testNames: readonly string[],
) => Promise<Map<string, IdentityHealth[]>>;

export const READ_TEST_HEALTH = Symbol('READ_TEST_HEALTH');

import { createActivityLogProjection } from '@switchyard/activity-log';
import { authCredentialsProjection } from '@switchyard/auth';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import type { Projection, Reactor, ReadModelFreshness } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { repositoryControlsLogMapping, repositoryControlsProjections } from '@switchyard/repository-controls';
import { readIdentityHealthOnDefaultBranch, testEngineProjections } from '@switchyard/test-engine';
import {
  createQuarantineHealthReactor,
  quarantineLogMapping,
  testQuarantineProjection,
} from '@switchyard/test-engine/quarantine';

/**
 * Every read model Switchyard serves. The activity log takes one mapping table per bounded
 * context; a context that adds events adds its table here.
 */
export function switchyardProjections(): Projection[] {
  return [
    authCredentialsProjection,
    ...repositoryControlsProjections,
    ...testEngineProjections,
    testQuarantineProjection,
    createActivityLogProjection([repositoryControlsLogMapping, mergeQueueLogMapping, quarantineLogMapping]),
  ];
}

/** Every reactor Switchyard runs beside the projections, reading the read models those build. */
export function switchyardReactors(deps: { sql: SqlQueryable; freshness: ReadModelFreshness }): Reactor[] {
  return [createQuarantineHealthReactor({ ...deps, readHealth: readIdentityHealthOnDefaultBranch })];
}

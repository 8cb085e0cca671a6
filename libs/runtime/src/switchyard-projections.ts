import { createActivityLogProjection } from '@switchyard/activity-log';
import { authCredentialsProjection } from '@switchyard/auth';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import { mergeQueueQueuesProjection } from '@switchyard/merge-queue/engine';
import { queueStatisticsProjection } from '@switchyard/merge-queue/statistics';
import { createDequeueRequestsReactor, queueStatusProjection } from '@switchyard/merge-queue/status';
import { codeHostProjections, createPullRequestReaderReactor } from '@switchyard/code-host/pull-requests';
import type { CodeHost } from '@switchyard/code-host';
import type { RecordedEvent } from '@switchyard/event-store';
import { systemClock } from '@switchyard/kernel';
import type { Projection, Reactor, ReadModelFreshness } from '@switchyard/projection';
import type { Logger } from 'pino';
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
    ...codeHostProjections,
    mergeQueueQueuesProjection,
    queueStatusProjection,
    queueStatisticsProjection,
    createActivityLogProjection([repositoryControlsLogMapping, mergeQueueLogMapping, quarantineLogMapping]),
  ];
}

/**
 * Facts from outside: what a code host reported (webhooks, reads of the code host). One that a
 * processor still cannot apply after its attempts is parked and the processor goes on; any other
 * event was written by Switchyard's own deciders, and a failure on it is a bug that stops it.
 */
export const isExternalFact = (event: RecordedEvent): boolean => event.type.startsWith('github.');

/** Every reactor Switchyard runs beside the projections, reading the read models those build. */
export function switchyardReactors(deps: {
  sql: SqlQueryable;
  freshness: ReadModelFreshness;
  codeHost: CodeHost;
  logger: Logger;
}): Reactor[] {
  const { codeHost } = deps;
  return [
    createQuarantineHealthReactor({
      sql: deps.sql,
      freshness: deps.freshness,
      readHealth: readIdentityHealthOnDefaultBranch,
    }),
    createPullRequestReaderReactor({ codeHost, clock: systemClock, logger: deps.logger }),
    createDequeueRequestsReactor({ clock: systemClock }),
  ];
}

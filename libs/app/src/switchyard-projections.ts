import { createActivityLogProjection } from '@switchyard/activity-log';
import { authCredentialsProjection } from '@switchyard/auth';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import { mergeQueueQueuesProjection } from '@switchyard/merge-queue/engine';
import { createDequeueRequestsReactor, queueStatusProjection } from '@switchyard/merge-queue/status';
import { codeHostProjections, createPullRequestReaderReactor } from '@switchyard/code-host/pull-requests';
import { createGitHubCodeHost, type ServiceOrigin } from '@switchyard/code-host/github';
import { sandboxServiceToken } from '@switchyard/code-host/sandbox';
import { systemClock } from '@switchyard/kernel';
import type { SwitchyardConfig } from '@switchyard/platform';
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
    createActivityLogProjection([repositoryControlsLogMapping, mergeQueueLogMapping, quarantineLogMapping]),
  ];
}

/** Every reactor Switchyard runs beside the projections, reading the read models those build. */
export function switchyardReactors(deps: {
  sql: SqlQueryable;
  freshness: ReadModelFreshness;
  config: SwitchyardConfig;
  logger: Logger;
  serviceOrigin: ServiceOrigin;
}): Reactor[] {
  const codeHost = createGitHubCodeHost({
    github: deps.config.github,
    adminKey: deps.config.adminKey,
    sandboxToken: () => sandboxServiceToken(deps.sql),
    serviceOrigin: () => deps.serviceOrigin.get(),
    logger: deps.logger,
  });
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

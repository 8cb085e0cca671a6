import { createGitHubCodeHost, type ServiceOrigin } from '@switchyard/code-host/github';
import { sandboxServiceToken } from '@switchyard/code-host/sandbox';
import { CommandService } from '@switchyard/event-store/application';
import { systemClock } from '@switchyard/kernel';
import { createMergeQueueEngine, type MergeQueueEngine } from '@switchyard/merge-queue/engine';
import type { Storage, SwitchyardConfig } from '@switchyard/platform';
import type { ReadModelFreshness } from '@switchyard/projection';
import type { Logger } from 'pino';

/**
 * The merge-queue engine on this process's stores and the configured code host (GitHub, or the
 * sandbox forge at this process's own origin). Its reactors run in the processor host of the
 * all-in-one or the engine process, each with a single owner across processes (openRuntime's
 * engineOwnership: a Redis lease with REDIS_URL, an advisory lock otherwise).
 */
export function openMergeQueueEngine(deps: {
  config: SwitchyardConfig;
  logger: Logger;
  serviceOrigin: ServiceOrigin;
  storage: Storage;
  freshness: ReadModelFreshness;
}): MergeQueueEngine {
  const codeHost = createGitHubCodeHost({
    github: deps.config.github,
    adminKey: deps.config.adminKey,
    sandboxToken: () => sandboxServiceToken(deps.storage.executor),
    serviceOrigin: () => deps.serviceOrigin.get(),
    logger: deps.logger,
  });
  return createMergeQueueEngine({
    store: deps.storage.store,
    commands: new CommandService(deps.storage.store),
    sql: deps.storage.executor,
    freshness: deps.freshness,
    codeHost,
    clock: systemClock,
    logger: deps.logger,
  });
}

import { createGitHubCodeHost, type GitHubCodeHost, type ServiceOrigin } from '@switchyard/github';
import { recordedForgeOrigin, sandboxServiceToken } from '@switchyard/sandbox-forge';
import type { Storage, SwitchyardConfig } from '@switchyard/platform';
import type { Logger } from 'pino';

/**
 * The process's one code host, shared by its HTTP features and its processors, so that a GitHub
 * installation has one client (one throttle, one token cache) per process. In sandbox mode the
 * forge is found at SWITCHYARD_GITHUB_API_URL when set, else at this process's own origin once it
 * listens (the api, the all-in-one), else at the origin an api of the deployment recorded in the
 * database (the engine and the projector).
 */
export function openProcessCodeHost(deps: {
  config: SwitchyardConfig;
  storage: Storage;
  serviceOrigin: ServiceOrigin;
  logger: Logger;
}): GitHubCodeHost {
  const recorded = recordedForgeOrigin(deps.storage.executor);
  return createGitHubCodeHost({
    github: deps.config.github,
    adminKey: deps.config.adminKey,
    sandboxToken: () => sandboxServiceToken(deps.storage.executor),
    serviceOrigin: async () => deps.serviceOrigin.get() ?? (await recorded()),
    logger: deps.logger,
  });
}

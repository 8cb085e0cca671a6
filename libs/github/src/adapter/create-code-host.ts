import type { OctokitLog } from './github-octokit';
import type { GitHubSettings } from '@switchyard/platform';
import { CodeHostError } from '@switchyard/code-host';
import { AppInstallationClients, TokenClients } from './github-clients';
import { GitHubCodeHost } from './github-code-host';
import { RequestMeter } from './request-meter';

/** Path of the sandbox forge under the service's own origin. */
export const SANDBOX_API_PATH = '/sandbox/github';

export interface CodeHostSetup {
  github: GitHubSettings;
  /** The admin key: the sandbox forge's token when it is configured. */
  adminKey: string | null;
  /**
   * The sandbox's own service token (`sandboxServiceToken`), used when no admin key is configured
   * (a first start prints a bootstrap key that is only stored hashed).
   */
  sandboxToken?: () => Promise<string>;
  /**
   * Where the sandbox forge is served (sandbox mode without an explicit API URL): this process's
   * own origin once it listens, else the origin an api of the deployment recorded
   * (recordedForgeOrigin); null while there is none yet.
   */
  serviceOrigin: () => string | null | Promise<string | null>;
  logger: OctokitLog;
}

/**
 * The one adapter, set up for the mode: GitHub mode authenticates as the App against github.com
 * or GHES; sandbox mode sends the admin key to the sandbox forge (SWITCHYARD_GITHUB_API_URL when
 * set, else the `/sandbox/github` of the service's own origin or of the api that recorded its
 * origin), or the sandbox's stored service token when no admin key is configured. Each process
 * makes one and shares it (openRuntime), so one installation has one throttle per process.
 */
export function createGitHubCodeHost(setup: CodeHostSetup): GitHubCodeHost {
  const meter = new RequestMeter();
  const { github } = setup;
  if (github.mode === 'github') {
    return new GitHubCodeHost(new AppInstallationClients(github, meter, setup.logger), meter);
  }
  const adminKey = setup.adminKey;
  const sandboxToken = setup.sandboxToken;
  const token = async (): Promise<string> => {
    if (adminKey) return adminKey;
    // Before any api has created the forge's tables, the forge is not there yet: wait it out.
    if (sandboxToken)
      return sandboxToken().catch((error: unknown) => {
        throw new CodeHostError(
          'unavailable',
          `The sandbox forge has not started yet: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    throw new CodeHostError(
      'unavailable',
      'Sandbox mode authenticates with the admin key or the sandbox service token: set SWITCHYARD_ADMIN_KEY',
    );
  };
  const apiUrl = github.apiUrl;
  const baseUrl = async (): Promise<string> => {
    if (apiUrl) return apiUrl;
    const origin = await setup.serviceOrigin();
    if (!origin)
      throw new CodeHostError(
        'unavailable',
        'The sandbox forge is not listening yet: no api of this deployment has recorded its origin',
      );
    return `${origin}${SANDBOX_API_PATH}`;
  };
  return new GitHubCodeHost(new TokenClients(baseUrl, token, meter, setup.logger), meter);
}

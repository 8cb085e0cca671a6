import type { GitHubSettings } from '@switchyard/platform';
import { CodeHostError } from '../port/code-host-error';
import { AppInstallationClients, TokenClients } from './github-clients';
import { GitHubCodeHost } from './github-code-host';
import { RequestMeter } from './request-meter';

/** Path of the sandbox forge under the service's own origin. */
export const SANDBOX_API_PATH = '/sandbox/github';

interface Logger {
  warn(message: string): void;
}

export interface CodeHostSetup {
  github: GitHubSettings;
  /** The admin key: the sandbox forge's token when it is configured. */
  adminKey: string | null;
  /**
   * The sandbox's own service token (`sandboxServiceToken`), used when no admin key is configured
   * (a first start prints a bootstrap key that is only stored hashed).
   */
  sandboxToken?: () => Promise<string>;
  /** The service's own origin once it listens (sandbox mode without an explicit API URL). */
  serviceOrigin: () => string | null;
  logger: Logger;
}

/**
 * The one adapter, set up for the mode: GitHub mode authenticates as the App against github.com
 * or GHES; sandbox mode sends the admin key to the sandbox forge (the service's own
 * `/sandbox/github`, or SWITCHYARD_GITHUB_API_URL when the forge runs in another process), or
 * the sandbox's stored service token when no admin key is configured.
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
    if (sandboxToken) return sandboxToken();
    throw new CodeHostError(
      'unavailable',
      'Sandbox mode authenticates with the admin key or the sandbox service token: set SWITCHYARD_ADMIN_KEY',
    );
  };
  const baseUrl = () => {
    if (github.apiUrl) return github.apiUrl;
    const origin = setup.serviceOrigin();
    if (!origin) throw new CodeHostError('unavailable', 'The sandbox forge is not listening yet');
    return `${origin}${SANDBOX_API_PATH}`;
  };
  return new GitHubCodeHost(new TokenClients(baseUrl, token, meter, setup.logger), meter);
}

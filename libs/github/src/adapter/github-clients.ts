import { createAppAuth } from '@octokit/auth-app';
import type { RepositoryCoordinates } from '@switchyard/code-host';
import { toCodeHostError } from './error-mapping';
import { GitHubOctokit, octokitOptions, type OctokitLog } from './github-octokit';
import type { RequestMeter } from './request-meter';

/** An installation of the App as GitHub lists it. */
export interface AppInstallation {
  id: number;
  /** The user or organization it is installed on. */
  account: string;
  /** `owner/name` of each repository it covers. */
  repositories: string[];
}

/** Which authenticated Octokit acts on a repository or an organization. */
export interface GitHubClients {
  forRepository(repository: RepositoryCoordinates): Promise<GitHubOctokit>;
  forOrganization(org: string): Promise<GitHubOctokit>;
  /** The login the clients act as, asked once per process: how a comment of our own is recognised. */
  ownLogin(): Promise<string>;
}

/**
 * One token for everything: the sandbox forge, which accepts the admin key as GitHub accepts a
 * token. The base URL is read on first use, because the service learns its own address only
 * once it listens.
 */
export class TokenClients implements GitHubClients {
  private client: { baseUrl: string; octokit: Promise<GitHubOctokit> } | null = null;
  private login: Promise<string> | null = null;

  constructor(
    /** Read on every use: the forge may move (an api restarted elsewhere). */
    private readonly baseUrl: () => Promise<string>,
    /** A token, or where to find it (the sandbox's stored service token). */
    private readonly token: string | (() => Promise<string>),
    private readonly meter: RequestMeter,
    private readonly log: OctokitLog,
  ) {}

  async forRepository(): Promise<GitHubOctokit> {
    return this.shared();
  }

  async forOrganization(): Promise<GitHubOctokit> {
    return this.shared();
  }

  /** The token's user (`GET /user`). */
  ownLogin(): Promise<string> {
    this.login ??= this.shared()
      .then((octokit) => octokit.rest.users.getAuthenticated())
      .then(({ data }) => data.login)
      .catch((error: unknown) => {
        this.login = null;
        throw error;
      });
    return this.login;
  }

  private async shared(): Promise<GitHubOctokit> {
    const baseUrl = await this.baseUrl();
    if (this.client?.baseUrl !== baseUrl) {
      const client = { baseUrl, octokit: this.connect(baseUrl) };
      this.client = client;
      client.octokit.catch(() => {
        if (this.client === client) this.client = null;
      });
    }
    return this.client.octokit;
  }

  private async connect(baseUrl: string): Promise<GitHubOctokit> {
    const auth = typeof this.token === 'string' ? this.token : await this.token();
    return new GitHubOctokit({ ...octokitOptions(baseUrl, this.log, false, this.meter), auth });
  }
}

/**
 * A GitHub App: a JWT finds the installation that covers a repository or an organization, then an
 * Octokit per installation authenticates with installation tokens. `@octokit/auth-app` caches
 * each token for 59 of its 60 minutes, so a token is renewed before GitHub expires it.
 */
export class AppInstallationClients implements GitHubClients {
  private readonly app: GitHubOctokit;
  private readonly byInstallation = new Map<number, GitHubOctokit>();
  private readonly installationOf = new Map<string, number>();
  private login: Promise<string> | null = null;

  constructor(
    private readonly settings: { appId: number; privateKey: string; apiUrl: string },
    private readonly meter: RequestMeter,
    private readonly log: OctokitLog,
  ) {
    this.app = new GitHubOctokit({
      ...octokitOptions(settings.apiUrl, log, true, meter),
      authStrategy: createAppAuth,
      auth: { appId: settings.appId, privateKey: settings.privateKey },
    });
  }

  async forRepository({ owner, name }: RepositoryCoordinates): Promise<GitHubOctokit> {
    return this.installationClient(`repo:${owner}/${name}`, async () => {
      const { data } = await this.app.rest.apps.getRepoInstallation({ owner, repo: name });
      return data.id;
    });
  }

  async forOrganization(org: string): Promise<GitHubOctokit> {
    return this.installationClient(`org:${org}`, async () => {
      const { data } = await this.app.rest.apps.getOrgInstallation({ org });
      return data.id;
    });
  }

  /**
   * The App's bot, `<slug>[bot]`: installation tokens act as it, and `GET /user` refuses them, so
   * the slug comes from `GET /app` with the App's JWT.
   */
  ownLogin(): Promise<string> {
    this.login ??= this.app.rest.apps
      .getAuthenticated()
      .then(({ data }) => {
        if (!data?.slug) throw new Error('GET /app answered no slug');
        return `${data.slug}[bot]`;
      })
      .catch((error: unknown) => {
        this.login = null;
        throw error;
      });
    return this.login;
  }

  /**
   * Every installation of the App and the repositories each covers (`owner/name` as GitHub spells
   * them), read with the JWT (`GET /app/installations`) and each installation's token
   * (`GET /installation/repositories`), all pages. A suspended installation covers nothing.
   */
  async listInstallations(): Promise<AppInstallation[]> {
    const installations = await this.app.paginate(this.app.rest.apps.listInstallations, { per_page: 100 });
    const listed: AppInstallation[] = [];
    for (const installation of installations) {
      const account =
        installation.account && 'login' in installation.account ? installation.account.login : '';
      if (installation.suspended_at) {
        listed.push({ id: installation.id, account, repositories: [] });
        continue;
      }
      const client = await this.installationClient(`installation:${installation.id}`, () =>
        Promise.resolve(installation.id),
      );
      const repositories = await client.paginate(client.rest.apps.listReposAccessibleToInstallation, {
        per_page: 100,
      });
      listed.push({ id: installation.id, account, repositories: repositories.map((repo) => repo.full_name) });
    }
    return listed;
  }

  /** Forget an installation (uninstalled, or repositories removed from it). */
  forget(installationId: number): void {
    this.byInstallation.delete(installationId);
    for (const [key, id] of this.installationOf) if (id === installationId) this.installationOf.delete(key);
  }

  private async installationClient(key: string, find: () => Promise<number>): Promise<GitHubOctokit> {
    let installationId = this.installationOf.get(key);
    if (installationId === undefined) {
      try {
        installationId = await find();
      } catch (error) {
        throw toCodeHostError(error, `no installation of the App covers ${key.slice(key.indexOf(':') + 1)}`);
      }
      this.installationOf.set(key, installationId);
    }
    let client = this.byInstallation.get(installationId);
    if (!client) {
      client = new GitHubOctokit({
        ...octokitOptions(this.settings.apiUrl, this.log, true, this.meter),
        authStrategy: createAppAuth,
        auth: { appId: this.settings.appId, privateKey: this.settings.privateKey, installationId },
      });
      this.byInstallation.set(installationId, client);
    }
    return client;
  }
}

import { generateKeyPairSync } from 'node:crypto';
import { isCodeHostError } from '@switchyard/code-host';
import { fakeGitHubApp, type FakeGitHubApp } from '../testing/fake-github-app';
import { GitHubRestContract } from '../testing/github-contract';
import { AppInstallationClients } from './github-clients';
import { GitHubCodeHost } from './github-code-host';
import { RequestMeter } from './request-meter';

/**
 * GitHub mode's authentication, against a server that checks what GitHub checks: the App's JWT
 * (RS256 with the App's key, issued by its ID) on the App endpoints, and an unexpired installation
 * token everywhere else. The server lives under `/api/v3`, as GitHub Enterprise Server does, so
 * every request (token minting too) must use the configured base URL.
 */
const APP_ID = 4242;
const INSTALLATION_ID = 77;
const SUSPENDED_ID = 78;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privatePem = privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;

describe('AppInstallationClients (GitHub App auth)', () => {
  let github: FakeGitHubApp;
  let apiUrl: string;
  let log: string[];
  let tokens: Map<string, number>;
  const contract = GitHubRestContract.load();

  beforeAll(async () => {
    github = await fakeGitHubApp({
      appId: APP_ID,
      publicKey,
      installations: [
        { id: INSTALLATION_ID, account: 'acme', repositories: ['acme/app', 'acme/api', 'acme/web'] },
        { id: SUSPENDED_ID, account: 'other', repositories: ['other/lib'], suspended: true },
      ],
      // Two items a page, so listing both must follow the Link header.
      pageSize: 2,
      checkResponse: (method, path, status, body) => contract.checkResponse(method, path, status, body),
      route: (method, path) =>
        method === 'GET' && path === '/repos/acme/app/branches/main'
          ? { status: 200, body: { name: 'main', commit: { sha: 'a'.repeat(40) } } }
          : undefined,
    });
    ({ apiUrl, log, tokens } = github);
  });
  afterAll(() => github.close());
  beforeEach(() => {
    log.length = 0;
    tokens.clear();
  });
  afterEach(() => {
    jest.useRealTimers();
    expect(github.contractProblems).toEqual([]);
  });

  const quiet = { warn: () => undefined };
  const repository = { owner: 'acme', name: 'app' };
  const host = () => {
    const meter = new RequestMeter();
    const clients = new AppInstallationClients(
      { appId: APP_ID, privateKey: privatePem, apiUrl },
      meter,
      quiet,
    );
    return new GitHubCodeHost(clients, meter);
  };

  it("knows its own login, the App's bot, from GET /app with the JWT, asked once", async () => {
    const meter = new RequestMeter();
    const clients = new AppInstallationClients(
      { appId: APP_ID, privateKey: privatePem, apiUrl },
      meter,
      quiet,
    );
    expect(await clients.ownLogin()).toBe('switchyard[bot]');
    expect(await clients.ownLogin()).toBe('switchyard[bot]');
    expect(log).toEqual(['GET /app (app)']);
  });

  it('answers not-found for a repository no installation covers', async () => {
    const error = await host()
      .getBranchHead({ owner: 'elsewhere', name: 'repo' }, 'main')
      .catch((e: unknown) => e);
    expect(isCodeHostError(error, 'not-found')).toBe(true);
    expect(log).toEqual(['GET /repos/elsewhere/repo/installation (app)']);
    expect(tokens.size).toBe(0);
  });

  it('lists the installations with the JWT and the repositories of each with its token, every page', async () => {
    const clients = new AppInstallationClients(
      { appId: APP_ID, privateKey: privatePem, apiUrl },
      new RequestMeter(),
      quiet,
    );
    expect(await clients.listInstallations()).toEqual([
      { id: INSTALLATION_ID, account: 'acme', repositories: ['acme/app', 'acme/api', 'acme/web'] },
      // Suspended: it covers nothing, and no token is minted for it.
      { id: SUSPENDED_ID, account: 'other', repositories: [] },
    ]);
    expect(log).toEqual([
      'GET /app/installations (app)',
      `POST /app/installations/${INSTALLATION_ID}/access_tokens (app)`,
      'GET /installation/repositories (ghs_1)',
      'GET /installation/repositories (ghs_1)',
    ]);
  });

  // Last: it moves the clock an hour on, and Octokit's throttling shares its schedulers between
  // instances, so a later test's requests would wait for that hour to pass.
  it('finds the installation with the JWT, then acts with its token, renewed before it expires', async () => {
    // Only the clock is faked: the server and Octokit's schedulers keep real timers.
    jest.useFakeTimers({
      doNotFake: [
        'setTimeout',
        'clearTimeout',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'nextTick',
        'queueMicrotask',
        'hrtime',
        'performance',
      ],
    });
    const start = Date.now();
    const codeHost = host();

    expect(await codeHost.getBranchHead(repository, 'main')).toEqual({ name: 'main', sha: 'a'.repeat(40) });
    expect(log).toEqual([
      'GET /repos/acme/app/installation (app)',
      `POST /app/installations/${INSTALLATION_ID}/access_tokens (app)`,
      'GET /repos/acme/app/branches/main (ghs_1)',
    ]);

    // Within the hour the token is reused, and the installation is not looked up again.
    jest.setSystemTime(start + 58 * 60_000);
    await codeHost.getBranchHead(repository, 'main');
    expect(log.slice(3)).toEqual(['GET /repos/acme/app/branches/main (ghs_1)']);

    // A minute before GitHub would refuse it, a new token is minted; the old one still worked.
    jest.setSystemTime(start + 59 * 60_000 + 1_000);
    expect(tokens.get('ghs_1')!).toBeGreaterThan(Date.now());
    await codeHost.getBranchHead(repository, 'main');
    expect(log.slice(4)).toEqual([
      `POST /app/installations/${INSTALLATION_ID}/access_tokens (app)`,
      'GET /repos/acme/app/branches/main (ghs_2)',
    ]);

    // Every request is billed to the operation that needed it, token minting included (a call,
    // not a write: it changes nothing in a repository, as GitHub's own throttling sees it).
    expect(codeHost.usage().byOperation.getBranchHead).toEqual({ calls: 6, writes: 0 });
  });
});

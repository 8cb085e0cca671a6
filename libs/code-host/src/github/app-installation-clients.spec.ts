import { generateKeyPairSync, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isCodeHostError } from '../port/code-host-error';
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
const HOUR = 3600_000;

describe('AppInstallationClients (GitHub App auth)', () => {
  let server: Server;
  let apiUrl: string;
  /** Each token minted and when it expires. */
  const tokens = new Map<string, number>();
  /** Which installation each token acts for. */
  const tokenInstallation = new Map<string, number>();
  const log: string[] = [];
  const contract = GitHubRestContract.load();
  /** Installations GitHub lists: id -> repositories (full names); a second one is suspended. */
  const installed = new Map<number, string[]>([
    [INSTALLATION_ID, ['acme/app', 'acme/api', 'acme/web']],
    [SUSPENDED_ID, ['other/lib']],
  ]);
  /** Two items a page, so listing both must follow the Link header. */
  const PAGE_SIZE = 2;

  function installationShape(id: number) {
    const at = '2026-01-01T00:00:00Z';
    const account = {
      login: id === INSTALLATION_ID ? 'acme' : 'other',
      id,
      node_id: `U_${id}`,
      avatar_url: `https://api.github.example/users/${id}/avatar_url`,
      gravatar_id: '',
      url: `https://api.github.example/users/${id}/url`,
      html_url: `https://api.github.example/users/${id}/html_url`,
      followers_url: `https://api.github.example/users/${id}/followers_url`,
      following_url: `https://api.github.example/users/${id}/following_url`,
      gists_url: `https://api.github.example/users/${id}/gists_url`,
      starred_url: `https://api.github.example/users/${id}/starred_url`,
      subscriptions_url: `https://api.github.example/users/${id}/subscriptions_url`,
      organizations_url: `https://api.github.example/users/${id}/organizations_url`,
      repos_url: `https://api.github.example/users/${id}/repos_url`,
      events_url: `https://api.github.example/users/${id}/events_url`,
      received_events_url: `https://api.github.example/users/${id}/received_events_url`,
      type: 'Organization',
      site_admin: false,
    };
    return {
      id,
      account,
      repository_selection: 'selected',
      access_tokens_url: `${apiUrl}/app/installations/${id}/access_tokens`,
      repositories_url: `${apiUrl}/installation/repositories`,
      html_url: `https://github.example/settings/installations/${id}`,
      app_id: APP_ID,
      app_slug: 'switchyard',
      target_id: id,
      target_type: 'Organization',
      permissions: { contents: 'write', pull_requests: 'write' },
      events: ['pull_request'],
      created_at: at,
      updated_at: at,
      single_file_name: null,
      suspended_by: null,
      suspended_at: id === SUSPENDED_ID ? at : null,
    };
  }

  /** One page of `items`, with GitHub's Link header to the next and last pages. */
  function page<T>(request: IncomingMessage, path: string, items: T[]): { body: T[]; link?: string } {
    const number = Number(new URL(request.url!, 'http://x').searchParams.get('page') ?? '1');
    const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
    const body = items.slice((number - 1) * PAGE_SIZE, number * PAGE_SIZE);
    if (number >= pages) return { body };
    return {
      body,
      link: `<${apiUrl}${path}?page=${number + 1}>; rel="next", <${apiUrl}${path}?page=${pages}>; rel="last"`,
    };
  }

  function appJwtValid(request: IncomingMessage): boolean {
    const match = /^bearer (.+)$/i.exec(request.headers.authorization ?? '');
    const [header, payload, signature] = match?.[1]?.split('.') ?? [];
    if (!header || !payload || !signature) return false;
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      publicKey,
      Buffer.from(signature, 'base64url'),
    );
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iss: unknown; exp: number };
    return signed && String(claims.iss) === String(APP_ID) && claims.exp * 1000 > Date.now();
  }

  function installationToken(request: IncomingMessage): string | null {
    const match = /^token (ghs_\d+)$/i.exec(request.headers.authorization ?? '');
    const expiresAt = match ? tokens.get(match[1]!) : undefined;
    return expiresAt !== undefined && expiresAt > Date.now() ? match![1]! : null;
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      const send = (status: number, body: unknown, link?: string) =>
        response
          .writeHead(status, { 'content-type': 'application/json', ...(link ? { link } : {}) })
          .end(JSON.stringify(body));
      const url = request.url!.split('?')[0]!;
      if (!url.startsWith('/api/v3/')) return send(404, { message: 'Not Found' });
      const path = url.slice('/api/v3'.length);
      if (path.startsWith('/app/') || /^\/repos\/[^/]+\/[^/]+\/installation$/.test(path)) {
        if (!appJwtValid(request)) return send(401, { message: 'A JSON web token could not be decoded' });
        log.push(`${request.method} ${path} (app)`);
        if (path === '/repos/acme/app/installation') return send(200, { id: INSTALLATION_ID });
        if (path === '/app/installations' && request.method === 'GET') {
          const { body, link } = page(request, path, [...installed.keys()].map(installationShape));
          expect(contract.checkResponse('GET', path, 200, body)).toEqual([]);
          return send(200, body, link);
        }
        const minting = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
        if (minting && installed.has(Number(minting[1])) && request.method === 'POST') {
          const token = `ghs_${tokens.size + 1}`;
          tokenInstallation.set(token, Number(minting[1]));
          const expiresAt = Date.now() + HOUR;
          tokens.set(token, expiresAt);
          return send(201, {
            token,
            expires_at: new Date(expiresAt).toISOString(),
            permissions: { contents: 'write', pull_requests: 'write' },
            repository_selection: 'all',
          });
        }
        return send(404, { message: 'Not Found' });
      }
      const token = installationToken(request);
      if (!token) return send(401, { message: 'Bad credentials' });
      log.push(`${request.method} ${path} (${token})`);
      if (path === '/installation/repositories') {
        const installationId = tokenInstallation.get(token)!;
        const repositories = (installed.get(installationId) ?? []).map((fullName) => ({
          full_name: fullName,
        }));
        const { body, link } = page(request, path, repositories);
        return send(200, { total_count: repositories.length, repositories: body }, link);
      }
      if (path === '/repos/acme/app/branches/main')
        return send(200, { name: 'main', commit: { sha: 'a'.repeat(40) } });
      return send(404, { message: 'Not Found' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    log.length = 0;
    tokens.clear();
  });
  afterEach(() => jest.useRealTimers());

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

import { generateKeyPairSync, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isCodeHostError } from '../port/code-host-error';
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
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privatePem = privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
const HOUR = 3600_000;

describe('AppInstallationClients (GitHub App auth)', () => {
  let server: Server;
  let apiUrl: string;
  /** Each token minted and when it expires. */
  const tokens = new Map<string, number>();
  const log: string[] = [];

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
      const send = (status: number, body: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const url = request.url!.split('?')[0]!;
      if (!url.startsWith('/api/v3/')) return send(404, { message: 'Not Found' });
      const path = url.slice('/api/v3'.length);
      if (path.startsWith('/app/') || /^\/repos\/[^/]+\/[^/]+\/installation$/.test(path)) {
        if (!appJwtValid(request)) return send(401, { message: 'A JSON web token could not be decoded' });
        log.push(`${request.method} ${path} (app)`);
        if (path === '/repos/acme/app/installation') return send(200, { id: INSTALLATION_ID });
        if (path === `/app/installations/${INSTALLATION_ID}/access_tokens` && request.method === 'POST') {
          const token = `ghs_${tokens.size + 1}`;
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

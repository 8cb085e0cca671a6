import { verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One installation of the App as the fake lists it. */
export interface FakeInstallation {
  id: number;
  account: string;
  /** Full names (`owner/name`) of the repositories it covers. */
  repositories: string[];
  suspended?: boolean;
}

export interface FakeGitHubAppOptions {
  appId: number;
  /** The App's public key: App JWTs must be signed with its private key. */
  publicKey: KeyObject;
  installations: FakeInstallation[];
  /** Items a page on the listing endpoints (Link headers lead to the rest). */
  pageSize?: number;
  /** Checks a response body against GitHub's description; answers the problems found. */
  checkResponse?: (method: string, path: string, status: number, body: unknown) => string[];
  /** Answers further requests made with an installation token (undefined: 404). */
  route?: (method: string, path: string) => { status: number; body: unknown } | undefined;
}

export interface FakeGitHubApp {
  /** Base URL, under `/api/v3` as on GitHub Enterprise Server. */
  apiUrl: string;
  /** `METHOD /path (app)` or `METHOD /path (token)`, in order of arrival. */
  log: string[];
  /** Each minted token and when it expires (ms since epoch). */
  tokens: Map<string, number>;
  /** Problems `checkResponse` found. */
  contractProblems: string[];
  close(): Promise<void>;
}

const HOUR = 3600_000;

/**
 * A GitHub App's view of GitHub over HTTP, checking what GitHub checks: the App's JWT (RS256 with
 * the App's key, issued by its ID) on the App endpoints, and an unexpired installation token
 * everywhere else. Serves `GET /app`, `GET /app/installations`, `POST /app/installations/{id}/access_tokens`,
 * `GET /repos/{owner}/{repo}/installation` and `GET /installation/repositories`, all paged.
 */
export async function fakeGitHubApp(options: FakeGitHubAppOptions): Promise<FakeGitHubApp> {
  const pageSize = options.pageSize ?? 30;
  const tokens = new Map<string, number>();
  const tokenInstallation = new Map<string, number>();
  const log: string[] = [];
  const contractProblems: string[] = [];
  const byId = new Map(options.installations.map((installation) => [installation.id, installation]));
  let apiUrl = '';

  function installationShape(installation: FakeInstallation) {
    const { id } = installation;
    const at = '2026-01-01T00:00:00Z';
    const user = (field: string) => `https://api.github.example/users/${id}/${field}`;
    return {
      id,
      account: {
        login: installation.account,
        id,
        node_id: `U_${id}`,
        avatar_url: user('avatar_url'),
        gravatar_id: '',
        url: user('url'),
        html_url: user('html_url'),
        followers_url: user('followers_url'),
        following_url: user('following_url'),
        gists_url: user('gists_url'),
        starred_url: user('starred_url'),
        subscriptions_url: user('subscriptions_url'),
        organizations_url: user('organizations_url'),
        repos_url: user('repos_url'),
        events_url: user('events_url'),
        received_events_url: user('received_events_url'),
        type: 'Organization',
        site_admin: false,
      },
      repository_selection: 'selected',
      access_tokens_url: `${apiUrl}/app/installations/${id}/access_tokens`,
      repositories_url: `${apiUrl}/installation/repositories`,
      html_url: `https://github.example/settings/installations/${id}`,
      app_id: options.appId,
      app_slug: 'switchyard',
      target_id: id,
      target_type: 'Organization',
      permissions: { contents: 'write', pull_requests: 'write' },
      events: ['pull_request'],
      created_at: at,
      updated_at: at,
      single_file_name: null,
      suspended_by: null,
      suspended_at: installation.suspended ? at : null,
    };
  }

  /** `GET /app`: the App itself, as its JWT sees it (its bot acts as `<slug>[bot]`). */
  function appShape() {
    const { account: owner, app_slug: slug, created_at: at } = installationShape(options.installations[0]!);
    return {
      id: options.appId,
      slug,
      client_id: `Iv1.${options.appId}`,
      node_id: `A_${options.appId}`,
      owner,
      name: 'Switchyard',
      description: null,
      external_url: 'https://switchyard.example',
      html_url: `https://github.example/apps/${slug}`,
      created_at: at,
      updated_at: at,
      permissions: { contents: 'write', pull_requests: 'write' },
      events: ['pull_request'],
    };
  }

  /** One page of `items`, with GitHub's Link header to the next and last pages. */
  function page<T>(request: IncomingMessage, path: string, items: T[]): { body: T[]; link?: string } {
    const number = Number(new URL(request.url!, 'http://x').searchParams.get('page') ?? '1');
    const pages = Math.max(1, Math.ceil(items.length / pageSize));
    const body = items.slice((number - 1) * pageSize, number * pageSize);
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
      options.publicKey,
      Buffer.from(signature, 'base64url'),
    );
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iss: unknown; exp: number };
    return signed && String(claims.iss) === String(options.appId) && claims.exp * 1000 > Date.now();
  }

  function installationToken(request: IncomingMessage): string | null {
    const match = /^token (ghs_\d+)$/i.exec(request.headers.authorization ?? '');
    const expiresAt = match ? tokens.get(match[1]!) : undefined;
    return expiresAt !== undefined && expiresAt > Date.now() ? match![1]! : null;
  }

  const server = createServer((request, response) => {
    const send = (status: number, body: unknown, link?: string) =>
      response
        .writeHead(status, { 'content-type': 'application/json', ...(link ? { link } : {}) })
        .end(JSON.stringify(body));
    const method = request.method ?? 'GET';
    const url = request.url!.split('?')[0]!;
    if (!url.startsWith('/api/v3/')) return send(404, { message: 'Not Found' });
    const path = url.slice('/api/v3'.length);
    const repositoryInstallation = /^\/repos\/([^/]+\/[^/]+)\/installation$/.exec(path);
    if (path === '/app' || path.startsWith('/app/') || repositoryInstallation) {
      if (!appJwtValid(request)) return send(401, { message: 'A JSON web token could not be decoded' });
      log.push(`${method} ${path} (app)`);
      if (repositoryInstallation) {
        const fullName = repositoryInstallation[1]!.toLowerCase();
        const installation = options.installations.find((candidate) =>
          candidate.repositories.some((repository) => repository.toLowerCase() === fullName),
        );
        return installation ? send(200, { id: installation.id }) : send(404, { message: 'Not Found' });
      }
      if (path === '/app' && method === 'GET') {
        const body = appShape();
        if (options.checkResponse) contractProblems.push(...options.checkResponse(method, path, 200, body));
        return send(200, body);
      }
      if (path === '/app/installations' && method === 'GET') {
        const { body, link } = page(request, path, options.installations.map(installationShape));
        if (options.checkResponse) contractProblems.push(...options.checkResponse(method, path, 200, body));
        return send(200, body, link);
      }
      const minting = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
      if (minting && byId.has(Number(minting[1])) && method === 'POST') {
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
    log.push(`${method} ${path} (${token})`);
    if (path === '/installation/repositories' && method === 'GET') {
      const repositories = (byId.get(tokenInstallation.get(token)!)?.repositories ?? []).map((fullName) => ({
        full_name: fullName,
      }));
      const { body, link } = page(request, path, repositories);
      return send(200, { total_count: repositories.length, repositories: body }, link);
    }
    const answer = options.route?.(method, path);
    return answer ? send(answer.status, answer.body) : send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
  return {
    apiUrl,
    log,
    tokens,
    contractProblems,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isCodeHostError } from '@switchyard/code-host';
import { TokenClients } from './github-clients';
import { GitHubCodeHost } from './github-code-host';
import { RequestMeter } from './request-meter';

/**
 * The adapter's own behaviour on GitHub's answers: status codes become typed errors, and every
 * request is counted against its operation. The port contract suite drives it against the sandbox.
 */
describe('GitHubCodeHost', () => {
  let server: Server;
  let baseUrl: string;
  const seen: { method: string; url: string; authorization: string | undefined }[] = [];
  let answer: (
    method: string,
    url: string,
  ) => { status: number; body: unknown; headers?: Record<string, string> };

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization });
      const { status, body, headers } = answer(request.method!, request.url!);
      response
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (seen.length = 0));

  const host = () => {
    const meter = new RequestMeter();
    return new GitHubCodeHost(
      new TokenClients(async () => baseUrl, 'admin-key', meter, { warn: () => undefined }),
      meter,
    );
  };
  const repository = { owner: 'acme', name: 'app' };

  it('sends the token and maps a 404 to a not-found error', async () => {
    answer = () => ({ status: 404, body: { message: 'Not Found' } });
    const error = await host()
      .getBranchHead(repository, 'nope')
      .catch((e: unknown) => e);
    expect(isCodeHostError(error, 'not-found')).toBe(true);
    expect(seen).toEqual([
      { method: 'GET', url: '/repos/acme/app/branches/nope', authorization: 'token admin-key' },
    ]);
  });

  it('maps a refused merge (405) to not-mergeable and a moved head (409) to conflict', async () => {
    answer = () => ({ status: 405, body: { message: 'Pull Request is not mergeable' } });
    const refused = await host()
      .mergePullRequest(repository, 3, { method: 'squash' })
      .catch((e: unknown) => e);
    expect(isCodeHostError(refused, 'not-mergeable')).toBe(true);
    answer = () => ({ status: 409, body: { message: 'Head branch was modified' } });
    const moved = await host()
      .mergePullRequest(repository, 3, { method: 'merge', expectedHeadSha: 'abc' })
      .catch((e: unknown) => e);
    expect(isCodeHostError(moved, 'conflict')).toBe(true);
  });

  it('reads the first configuration file that exists, in the documented order', async () => {
    answer = (_method, url) =>
      url.startsWith('/repos/acme/app/contents/.mergify%2Fconfig.yml') ||
      url.startsWith('/repos/acme/app/contents/.mergify/config.yml')
        ? {
            status: 200,
            body: {
              type: 'file',
              sha: 'blob1',
              content: Buffer.from('queue_rules: []\n').toString('base64'),
            },
          }
        : { status: 404, body: { message: 'Not Found' } };
    const file = await host().getConfiguration(repository, 'main');
    expect(file).toEqual({
      path: '.mergify/config.yml',
      content: 'queue_rules: []\n',
      sha: 'blob1',
      ref: 'main',
    });
    expect(seen.map((request) => decodeURIComponent(request.url))).toEqual([
      '/repos/acme/app/contents/.mergify.yml?ref=main',
      '/repos/acme/app/contents/.mergify/config.yml?ref=main',
    ]);
  });

  it("lists every page of a pull request's comments and tells its own (the token's user) apart", async () => {
    const comment = (id: number, login: string) => ({
      id,
      html_url: `http://x/${id}`,
      body: `comment ${id}`,
      user: { login, id, type: 'User' },
    });
    answer = (_method, url) => {
      if (url === '/user') return { status: 200, body: { login: 'Switchyard-Bot', id: 1 } };
      if (url.includes('page=2')) return { status: 200, body: [comment(3, 'switchyard-bot')] };
      return {
        status: 200,
        body: [comment(1, 'switchyard-bot'), comment(2, 'alice')],
        headers: {
          link: `<${baseUrl}/repositories/1/issues/5/comments?per_page=100&page=2>; rel="next", <${baseUrl}/repositories/1/issues/5/comments?per_page=100&page=2>; rel="last"`,
        },
      };
    };
    const codeHost = host();
    const { result, usage } = await codeHost.metered(() => codeHost.listComments(repository, 5));
    expect(result).toEqual([
      { id: 1, url: 'http://x/1', body: 'comment 1', author: 'switchyard-bot', ownComment: true },
      { id: 2, url: 'http://x/2', body: 'comment 2', author: 'alice', ownComment: false },
      { id: 3, url: 'http://x/3', body: 'comment 3', author: 'switchyard-bot', ownComment: true },
    ]);
    expect(seen.map((request) => `${request.method} ${request.url}`).sort()).toEqual([
      'GET /repos/acme/app/issues/5/comments?per_page=100',
      'GET /repositories/1/issues/5/comments?per_page=100&page=2',
      'GET /user',
    ]);
    expect(usage.byOperation).toEqual({ listComments: { calls: 3, writes: 0 } });
    // Who we are is asked once per process.
    await codeHost.listComments(repository, 5);
    expect(seen.filter((request) => request.url === '/user')).toHaveLength(1);
  });

  it('edits a comment with PATCH (a write, not new content) and maps a deleted one to not-found', async () => {
    answer = (method) =>
      method === 'PATCH'
        ? { status: 200, body: { id: 7, html_url: 'http://x/7', body: 'new' } }
        : { status: 404, body: { message: 'Not Found' } };
    const codeHost = host();
    const { result, usage } = await codeHost.metered(() => codeHost.updateComment(repository, 7, 'new'));
    expect(result).toEqual({ id: 7, url: 'http://x/7' });
    expect(seen).toEqual([
      { method: 'PATCH', url: '/repos/acme/app/issues/comments/7', authorization: 'token admin-key' },
    ]);
    expect(usage.byOperation).toEqual({ updateComment: { calls: 1, writes: 1 } });
    answer = () => ({ status: 404, body: { message: 'Not Found' } });
    const error = await codeHost.updateComment(repository, 8, 'gone').catch((e: unknown) => e);
    expect(isCodeHostError(error, 'not-found')).toBe(true);
  });

  it('counts calls and writes per operation, and only those of the metered work', async () => {
    answer = (method) =>
      method === 'POST'
        ? { status: 201, body: { id: 9, html_url: 'http://x/9', name: 'a' } }
        : { status: 404, body: { message: 'Not Found' } };
    const codeHost = host();
    const outside = codeHost.comment(repository, 1, 'not counted in the block');
    const { usage } = await codeHost.metered(async () => {
      await codeHost.comment(repository, 2, 'hello');
      await codeHost.getBranchHead(repository, 'x').catch(() => undefined);
    });
    await outside;
    expect(usage).toEqual({
      calls: 2,
      writes: 1,
      byOperation: { comment: { calls: 1, writes: 1 }, getBranchHead: { calls: 1, writes: 0 } },
    });
    expect(codeHost.usage()).toMatchObject({ calls: 3, writes: 2 });
  });
});

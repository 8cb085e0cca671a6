import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isCodeHostError } from '../port/code-host-error';
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
  let answer: (method: string, url: string) => { status: number; body: unknown };

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization });
      const { status, body } = answer(request.method!, request.url!);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (seen.length = 0));

  const host = () => {
    const meter = new RequestMeter();
    return new GitHubCodeHost(
      new TokenClients(() => baseUrl, 'admin-key', meter, { warn: () => undefined }),
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

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitHubTokenVerifier } from './github-token-verifier';

/** Against a stand-in GitHub answering /user and /user/installations for one known token. */
describe('GitHubTokenVerifier', () => {
  let server: Server;
  let apiUrl: string;
  const requests: string[] = [];
  let installationsStatus = 200;

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(`${request.url} ${request.headers.authorization}`);
      const known = request.headers.authorization === 'token gho_known';
      const json = (status: number, body: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (!known) return json(401, { message: 'Bad credentials' });
      if (request.url === '/user') return json(200, { id: 7, login: 'octo' });
      if (request.url?.startsWith('/user/installations')) {
        if (installationsStatus !== 200) return json(installationsStatus, { message: 'Forbidden' });
        return json(200, {
          total_count: 2,
          installations: [{ account: { login: 'acme' } }, { account: { login: 'octo' } }],
        });
      }
      json(404, { message: 'Not Found' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    requests.length = 0;
    installationsStatus = 200;
  });

  it('answers the user and the accounts its installations cover, and reuses the answer for a while', async () => {
    let now = 1_000;
    const verifier = new GitHubTokenVerifier({ apiUrl, ttlMs: 60_000, now: () => now });
    const expected = { user: { id: 7, login: 'octo' }, accounts: ['octo', 'acme'] };
    expect(await verifier.verify('gho_known')).toEqual(expected);
    expect(await verifier.verify('gho_known')).toEqual(expected);
    expect(requests).toHaveLength(2);
    now += 60_001;
    expect(await verifier.verify('gho_known')).toEqual(expected);
    expect(requests).toHaveLength(4);
  });

  it('knows nothing of a token GitHub refuses, and remembers that briefly too', async () => {
    const verifier = new GitHubTokenVerifier({ apiUrl });
    expect(await verifier.verify('ghp_unknown')).toBeNull();
    expect(await verifier.verify('ghp_unknown')).toBeNull();
    expect(requests).toEqual([`/user token ghp_unknown`]);
  });

  it('lets a token that may not list installations act for its own account', async () => {
    installationsStatus = 403;
    const verifier = new GitHubTokenVerifier({ apiUrl });
    expect(await verifier.verify('gho_known')).toEqual({
      user: { id: 7, login: 'octo' },
      accounts: ['octo'],
    });
  });
});

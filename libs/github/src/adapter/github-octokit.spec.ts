import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TokenClients } from './github-clients';
import { GitHubCodeHost } from './github-code-host';
import { RequestMeter } from './request-meter';

/** What the adapter logs of GitHub's failed answers: a 404 it asked for is no warning. */
describe('failed GitHub requests in the log', () => {
  let server: Server;
  let baseUrl: string;
  let status: number;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: status === 404 ? 'Not Found' : 'Unprocessable' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const hostLoggingTo = () => {
    const lines = { warn: [] as string[], debug: [] as string[] };
    const meter = new RequestMeter();
    const host = new GitHubCodeHost(
      new TokenClients(async () => baseUrl, 'admin-key', meter, {
        warn: (line) => lines.warn.push(line),
        debug: (line) => lines.debug.push(line),
      }),
      meter,
    );
    return { host, lines };
  };
  const repository = { owner: 'acme', name: 'app' };

  it('says at debug that no configuration file was found, one line per path tried', async () => {
    status = 404;
    const { host, lines } = hostLoggingTo();
    expect(await host.getConfiguration(repository)).toBeNull();
    expect(lines.warn).toEqual([]);
    expect(lines.debug).toEqual([
      expect.stringMatching(/^GitHub GET \S+\/repos\/acme\/app\/contents\/\.mergify\.yml failed: 404$/),
      expect.stringContaining('/contents/.mergify%2Fconfig.yml failed: 404'),
      expect.stringContaining('/contents/.github%2Fmergify.yml failed: 404'),
    ]);
  });

  it('warns, once, of any other failure', async () => {
    status = 422;
    const { host, lines } = hostLoggingTo();
    await expect(host.getConfiguration(repository)).rejects.toBeDefined();
    expect(lines.warn).toEqual([
      expect.stringMatching(/^GitHub GET \S+\/repos\/acme\/app\/contents\/\.mergify\.yml failed: 422$/),
    ]);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitHubOctokit, octokitOptions } from './github-octokit';
import { RequestMeter } from './request-meter';

/**
 * Every HTTP request Octokit sends is counted once, against the operation and the metered scopes
 * that asked for it, also when Octokit's throttling and retry plugins hold it in their queues and
 * send it (again) later, while other scopes run.
 */
describe('RequestMeter with Octokit', () => {
  let server: Server;
  let baseUrl: string;
  let received = 0;
  /** Paths answered 500 once, so the retry plugin sends them again. */
  const failOnce = new Set<string>();

  beforeAll(async () => {
    server = createServer((request, response) => {
      received += 1;
      const path = request.url!.split('?')[0]!;
      if (failOnce.delete(path)) {
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"boom"}');
        return;
      }
      // Answer out of order, so the scopes' requests interleave.
      setTimeout(
        () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
        Number(path.split('/').pop()) % 7,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const quiet = { warn: () => undefined };
  /** Paced writes go one a second: a few scopes are enough to interleave. */
  const SCOPES = 4;

  it.each([
    ['paced (throttling on)', true],
    ['unpaced', false],
  ])('keeps concurrent scopes apart and counts retries, %s', async (_label, paced) => {
    const meter = new RequestMeter();
    const octokit = new GitHubOctokit({
      ...octokitOptions(baseUrl, quiet, paced, meter),
      auth: 'token',
      // The retry plugin waits longer after each failure; keep it short.
      retry: { doNotRetry: [400, 401, 403, 404, 422], retryAfterBaseValue: 1 },
    });
    received = 0;
    const scope = (id: number) =>
      meter.metered(async () => {
        for (let i = 0; i < 4; i += 1) {
          await meter.operation(`read-${id}`, () => octokit.request(`GET /scope/${id}/read/${i}`));
        }
        await Promise.all([
          meter.operation(`write-${id}`, () => octokit.request(`POST /scope/${id}/write/0`)),
          meter.operation(`write-${id}`, () => octokit.request(`POST /scope/${id}/write/1`)),
        ]);
      });
    for (let id = 0; id < SCOPES; id += 1) failOnce.add(`/scope/${id}/read/${id % 4}`);
    const results = await Promise.all(Array.from({ length: SCOPES }, (_, id) => scope(id)));

    results.forEach(({ usage }, id) => {
      expect(usage).toEqual({
        calls: 7,
        writes: 2,
        byOperation: {
          [`read-${id}`]: { calls: 5, writes: 0 },
          [`write-${id}`]: { calls: 2, writes: 2 },
        },
      });
    });
    expect(received).toBe(7 * SCOPES);
    expect(meter.total.calls).toBe(7 * SCOPES);
    expect(meter.total.writes).toBe(2 * SCOPES);
  });
});

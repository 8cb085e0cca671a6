import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { createLogger } from './create-logger';
import { logCompletedRequests, type RequestLogOptions } from './request-log';

async function appLoggingTo(lines: Array<Record<string, unknown>>, options: RequestLogOptions = {}) {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const logger: FastifyBaseLogger = createLogger({ logLevel: 'debug' }, stream);
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  logCompletedRequests(app, options);
  app.get('/v1/thing', async (request) => ({ id: request.id }));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.post('/webhooks/github', async () => ({ recorded: true }));
  app.get('/sandbox/github/repos/:owner/:repo', async (_request, reply) => reply.code(404).send({}));
  app.get('/readyz', async (_request, reply) => reply.code(503).send({ detail: 'not ready' }));
  await app.ready();
  return app;
}

describe('logCompletedRequests', () => {
  it('writes one line per answered request, with method, url, status and time', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await appLoggingTo(lines);
    const answered = await app.inject({ method: 'GET', url: '/v1/thing?x=1' });
    await app.inject({ method: 'GET', url: '/v1/missing' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      method: 'GET',
      url: '/v1/thing?x=1',
      statusCode: 200,
    });
    expect(typeof lines[0]!.responseTime).toBe('number');
    // The request's own id, as its request.log lines carry it.
    expect(lines[0]!.reqId).toBe(answered.json<{ id: string }>().id);
    expect(lines[1]).toMatchObject({ statusCode: 404 });
    await app.close();
  });

  it('leaves out probes that succeed, and logs those that fail', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await appLoggingTo(lines);
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/readyz' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([expect.objectContaining({ url: '/readyz', statusCode: 503 })]);
    await app.close();
  });

  it('says successful machine traffic at debug, and its failures at info', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await appLoggingTo(lines, { quietPrefixes: ['/sandbox/github/', '/webhooks/github'] });
    await app.inject({ method: 'POST', url: '/webhooks/github' });
    await app.inject({ method: 'GET', url: '/sandbox/github/repos/acme/none' });
    await app.inject({ method: 'GET', url: '/v1/thing' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line.level, line.url, line.statusCode])).toEqual([
      [20, '/webhooks/github', 200],
      [30, '/sandbox/github/repos/acme/none', 404],
      [30, '/v1/thing', 200],
    ]);
    await app.close();
  });
});

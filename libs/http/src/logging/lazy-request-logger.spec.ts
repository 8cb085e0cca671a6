import { Writable } from 'node:stream';
import Fastify from 'fastify';
import type { Logger } from 'pino';
import { createLogger } from './create-logger';
import { lazyChildLogger } from './lazy-request-logger';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const logger = createLogger({ logLevel: level as 'info' }, stream);
  const children = jest.spyOn(logger, 'child');
  return { lines, logger, children };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('LazyRequestLogger', () => {
  it('makes no child logger until a line is written, then one, which carries the bindings', async () => {
    const { lines, logger, children } = capture('info');
    const log = lazyChildLogger(logger, { reqId: 'req-1' }, {});
    expect(children).not.toHaveBeenCalled();
    log.info({ a: 1 }, 'first');
    log.error('second %s', 'line');
    await settle();
    expect(children).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, reqId: 'req-1', a: 1, msg: 'first' }),
      expect.objectContaining({ level: 50, reqId: 'req-1', msg: 'second line' }),
    ]);
  });

  it('drops lines below the level without making a child, as pino would', async () => {
    const { lines, logger, children } = capture('warn');
    const log = lazyChildLogger(logger, { reqId: 'req-2' }, {});
    log.info('dropped');
    log.debug('dropped');
    log.silent();
    expect(log.level).toBe('warn');
    log.warn('kept');
    await settle();
    expect(children).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([expect.objectContaining({ level: 40, reqId: 'req-2', msg: 'kept' })]);
  });

  it('follows a level of its own, and its children keep its bindings', async () => {
    const { lines, logger } = capture('warn');
    const log = lazyChildLogger(logger, { reqId: 'req-3' }, { level: 'debug' });
    expect(log.level).toBe('debug');
    log.debug('own level');
    log.child({ step: 'x' }).warn('from a child');
    await settle();
    expect(lines).toEqual([
      expect.objectContaining({ level: 20, reqId: 'req-3', msg: 'own level' }),
      expect.objectContaining({ level: 40, reqId: 'req-3', step: 'x', msg: 'from a child' }),
    ]);
  });

  it("is Fastify's request.log: a line logged while serving carries the request's id", async () => {
    const { lines, logger } = capture('info');
    const app = Fastify({ loggerInstance: logger as Logger, childLoggerFactory: lazyChildLogger });
    app.get('/thing', async (request) => {
      request.log.warn({ step: 'handler' }, 'something to say');
      return { id: request.id };
    });
    const response = await app.inject({ method: 'GET', url: '/thing' });
    await settle();
    const { id } = response.json<{ id: string }>();
    expect(lines).toContainEqual(
      expect.objectContaining({ reqId: id, step: 'handler', msg: 'something to say' }),
    );
    await app.close();
  });
});

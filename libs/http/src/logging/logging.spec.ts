import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { createLogger } from './create-logger';
import { PinoNestLogger } from './pino-nest-logger';
import { genReqId } from './request-id';

const withHeader = (value?: string | string[]) =>
  ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as unknown as IncomingMessage;

describe('genReqId', () => {
  it('keeps a sane incoming id', () => {
    expect(genReqId(withHeader('req-123.abc:7'))).toBe('req-123.abc:7');
    expect(genReqId(withHeader(['first', 'second']))).toBe('first');
  });

  it.each([['with space'], ['a'.repeat(129)], ['line\nbreak'], ['']])('replaces %j with a uuid', (value) => {
    expect(genReqId(withHeader(value))).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('makes a uuid when none was sent', () => {
    expect(genReqId(withHeader())).toMatch(/^[0-9a-f-]{36}$/);
  });
});

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'trace' }, stream) };
}

describe('PinoNestLogger', () => {
  it("writes Nest's messages as structured lines with their context", async () => {
    const { lines, logger } = capture();
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped {/v1/application, GET} route', 'RouterExplorer');
    nest.error('Boom', 'Error: Boom\n    at x', 'ExceptionsHandler');
    nest.warn({ event: 'slow' }, 'Projector');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({
      level: 20,
      msg: 'Mapped {/v1/application, GET} route',
      context: 'RouterExplorer',
    });
    expect(lines[1]).toMatchObject({
      level: 50,
      msg: 'Boom',
      context: 'ExceptionsHandler',
      stack: 'Error: Boom\n    at x',
    });
    expect(lines[2]).toMatchObject({ level: 40, event: 'slow', context: 'Projector' });
  });

  it("says Nest's start-up narration at debug, and its other messages at info", async () => {
    const { lines, logger } = capture();
    const nest = new PinoNestLogger(logger);
    nest.log('Starting Nest application...', 'NestFactory');
    nest.log('AuthModule dependencies initialized', 'InstanceLoader');
    nest.log('HealthController {/}:', 'RoutesResolver');
    nest.log('Nest application successfully started', 'NestApplication');
    nest.log('something of our own', 'Projector');
    nest.log('no context at all');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [20, 'Starting Nest application...'],
      [20, 'AuthModule dependencies initialized'],
      [20, 'HealthController {/}:'],
      [20, 'Nest application successfully started'],
      [30, 'something of our own'],
      [30, 'no context at all'],
    ]);
  });

  it('redacts secrets and authorization headers', async () => {
    const { lines, logger } = capture();
    logger.info(
      { req: { headers: { authorization: 'Bearer sy_admin_x' } }, key: { secret: 'sy_ci_y' } },
      'x',
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.stringify(lines[0])).not.toMatch(/sy_admin_x|sy_ci_y/);
  });

  it("redacts the dashboard's session cookie and its sign-in body", async () => {
    const { lines, logger } = capture();
    logger.info(
      { req: { headers: { cookie: 'switchyard_session=sy_admin_z' } }, body: { credential: 'sy_ci_w' } },
      'x',
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.stringify(lines[0])).not.toMatch(/sy_admin_z|sy_ci_w/);
  });
});

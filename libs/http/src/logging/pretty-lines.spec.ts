import pino from 'pino';
import { writesPretty } from './create-logger';
import { prettyLines } from './pretty-lines';
import { REQUEST_COMPLETED } from './request-log';

function prettyLogger() {
  const written: string[] = [];
  let flushed = 0;
  const out = {
    write: (line: string) => written.push(line),
    flushSync: () => (flushed += 1),
  };
  const logger = pino(
    { level: 'debug', base: { service: 'switchyard' } },
    prettyLines(out, { colorize: false }),
  );
  return { logger, written, flushes: () => flushed };
}

describe('prettyLines', () => {
  it('says a request in one short line: time, level, method, url, status and milliseconds', () => {
    const { logger, written } = prettyLogger();
    logger.info(
      { reqId: 'r-1', method: 'GET', url: '/v1/application', statusCode: 200, responseTime: 1.4321 },
      REQUEST_COMPLETED,
    );
    expect(written).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/application 200 1\.4 ms\n$/),
    ]);
  });

  it("prefixes Nest's context, keeps other fields after the message, and leaves out the constant ones", () => {
    const { logger, written } = prettyLogger();
    logger.debug({ context: 'RouterExplorer' }, 'Mapped {/healthz, GET} route');
    logger.info({ url: 'http://127.0.0.1:8080', role: 'all-in-one' }, 'switchyard listening');
    expect(written[0]).toMatch(/ DEBUG: RouterExplorer: Mapped \{\/healthz, GET\} route\n$/);
    expect(written[1]).toMatch(
      / INFO: switchyard listening \{"url":"http:\/\/127.0.0.1:8080","role":"all-in-one"\}\n$/,
    );
    expect(written.join('')).not.toContain('service');
  });

  it('prints an error with its stack', () => {
    const { logger, written } = prettyLogger();
    logger.error({ err: new Error('boom') }, 'it failed');
    expect(written[0]).toMatch(/ ERROR: it failed/);
    expect(written[0]).toMatch(/Error: boom\n\s+at /);
  });

  it('passes the flush pino asks for on to stdout', () => {
    const { logger, flushes } = prettyLogger();
    logger.flush();
    expect(flushes()).toBe(1);
  });
});

describe('writesPretty', () => {
  it('writes for a person when asked, or on a terminal when left to choose; JSON otherwise', () => {
    expect(writesPretty('auto', true)).toBe(true);
    expect(writesPretty('auto', false)).toBe(false);
    expect(writesPretty('pretty', false)).toBe(true);
    expect(writesPretty('json', true)).toBe(false);
  });
});

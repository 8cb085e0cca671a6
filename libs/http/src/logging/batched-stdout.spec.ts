import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { eventually, scaledWait } from '@switchyard/testing';
import { BatchedStdout, LOG_BATCH_CHARS } from './create-logger';

describe('BatchedStdout', () => {
  let dir: string;
  let file: string;
  let batched: BatchedStdout;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'batched-stdout-'));
    file = join(dir, 'log');
    batched = new BatchedStdout(file);
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => batched.end(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const logger = () => pino({}, batched.stream);
  const messages = () =>
    (existsSync(file) ? readFileSync(file, 'utf8') : '')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);

  it('writes lines that never fill a batch, after a moment and not at once', async () => {
    const log = logger();
    log.info('one');
    log.info('two');
    expect(messages()).toEqual([]);
    const written = await eventually(
      'both lines written',
      async () => messages().length === 2 && messages(),
      { timeoutMs: scaledWait(20_000) },
    );
    expect(written).toEqual(['one', 'two']);
    // A line logged after the first batch went out is written too.
    log.info('three');
    await eventually('the third line written', async () => messages().length === 3, {
      timeoutMs: scaledWait(20_000),
    });
    expect(messages()).toEqual(['one', 'two', 'three']);
  });

  it('writes a full batch at once, and a burst of many batches in full and in order', async () => {
    const log = logger();
    const count = Math.ceil((LOG_BATCH_CHARS * 10) / 60);
    for (let i = 0; i < count; i++) log.info(`line ${i}`);
    expect(messages().length).toBeGreaterThan(0);
    await eventually('every line written', async () => messages().length === count, {
      timeoutMs: scaledWait(20_000),
    });
    expect(messages()).toEqual(Array.from({ length: count }, (_, i) => `line ${i}`));
  });

  it('writes what is pending when the process exits', () => {
    const exitFile = join(dir, 'exit-log');
    const script = [
      `const pino = require('pino');`,
      `const { BatchedStdout } = require(${JSON.stringify(join(__dirname, 'create-logger'))});`,
      `pino({}, new BatchedStdout(${JSON.stringify(exitFile)}).stream).info('last words');`,
      `process.exit(0);`,
    ].join('\n');
    execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], { cwd: process.cwd() });
    expect(readFileSync(exitFile, 'utf8')).toContain('"msg":"last words"');
  });
});

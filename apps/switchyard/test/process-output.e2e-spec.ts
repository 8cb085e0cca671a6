import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Line = Record<string, unknown>;

/**
 * What the all-in-one process prints, as a person or a log collector sees it: its own main, in a
 * process of its own, stdout read to the end. Not a terminal here, so the lines are JSON.
 */
describe('the all-in-one process on stdout', () => {
  jest.setTimeout(180_000);
  let dataDir: string;
  let child: ChildProcessWithoutNullStreams | null = null;
  let stdout = '';

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchyard-process-'));
  });
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Resolves once stdout holds `text`; fails if the process ends first or takes too long. */
  const printed = (text: string, timeoutMs = 150_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not printed: ${text}\n${stdout}`)), timeoutMs);
      const check = () => {
        if (!stdout.includes(text)) return;
        clearTimeout(timer);
        child!.stdout.off('data', check);
        resolve();
      };
      child!.stdout.on('data', check);
      child!.once('exit', () => reject(new Error(`exited before printing: ${text}\n${stdout}`)));
      check();
    });

  const jsonLines = (text: string): Line[] =>
    text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Line);

  it('says what matters at info, prints the admin key last, and says it stops on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SWITCHYARD_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    delete env.LOG_FORMAT;
    delete env.SWITCHYARD_ADMIN_KEY;
    // The quick start's process: the embedded store and nothing else (CI exports both URLs).
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    delete env.SWITCHYARD_REQUIRE_REDIS;
    child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/switchyard/src/main.ts'], {
      cwd: process.cwd(),
      env,
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    await printed('Try: curl');
    const [beforeBanner, banner] = stdout.split('\nSwitchyard created an admin application key');
    const start = jsonLines(beforeBanner!);
    // Nest's narration (about 160 lines of modules and routes) is at debug; nothing warns.
    expect(start.filter((line) => line.context !== undefined)).toEqual([]);
    expect(start.filter((line) => (line.level as number) >= 40)).toEqual([]);
    expect(start.length).toBeLessThan(20);
    // The banner comes after every line of the start, the last of which says where it listens.
    const listening = start[start.length - 1]!;
    expect(listening).toMatchObject({ msg: 'switchyard listening', role: 'all-in-one' });
    expect(jsonLines(banner!)).toEqual([]);

    const url = listening.url as string;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const refused = await fetch(`${url}/v1/application`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      detail: 'Authentication required: send Authorization: Bearer <application key or token>',
    });
    await printed('"url":"/v1/application"');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const after = jsonLines(stdout.split('Try: curl')[1]!);
    expect(after.map((line) => [line.msg, line.statusCode ?? line.signal ?? null])).toEqual([
      ['request completed', 403],
      ['switchyard stopping', 'SIGTERM'],
      ['switchyard stopped', null],
    ]);
  });
});

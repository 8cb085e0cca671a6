import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface AppProcess {
  baseUrl: string;
  /** The server's process id, to read its CPU time from /proc. */
  pid: number;
  stop(): Promise<void>;
}

const ROOT = join(__dirname, '..', '..');

/**
 * A TypeScript entry point as its own Node process, answered once `readyPath` says 200: servers
 * under load must not share an event loop with the load generator. BENCH_APP_NODE_ARGS adds Node
 * flags (`--cpu-prof` to profile).
 */
export async function startServerProcess(options: {
  entry: string;
  port: number;
  env: NodeJS.ProcessEnv;
  readyPath: string;
}): Promise<AppProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--experimental-vm-modules',
      '--disable-warning=ExperimentalWarning',
      // What `npm start` and the image run with (README, Rebuilds), for ours and the baseline alike.
      '--max-semi-space-size=64',
      ...(process.env.BENCH_APP_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '-r',
      '@swc-node/register',
      join(ROOT, options.entry),
    ],
    { cwd: ROOT, env: options.env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${options.entry} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}${options.readyPath}`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${options.entry} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    baseUrl,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The all-in-one app as its own process (apps/switchyard/src/main.ts), so requests cross a real
 * socket. On PostgreSQL when given a database URL, else on the embedded store in `dataDir`.
 */
export function startAppProcess(
  store: string | { dataDir: string },
  adminKey: string,
  port: number,
  overrides: NodeJS.ProcessEnv = {},
): Promise<AppProcess> {
  const { DATABASE_URL: _inherited, ...env } = process.env;
  return startServerProcess({
    entry: 'apps/switchyard/src/main.ts',
    port,
    readyPath: '/readyz',
    env: {
      ...env,
      ...(typeof store === 'string' ? { DATABASE_URL: store } : { SWITCHYARD_DATA_DIR: store.dataDir }),
      PORT: String(port),
      HOST: '127.0.0.1',
      SWITCHYARD_ACCOUNT: 'acme',
      SWITCHYARD_ADMIN_KEY: adminKey,
      LOG_LEVEL: 'warn',
      ...overrides,
    },
  });
}

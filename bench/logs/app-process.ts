import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface AppProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * The all-in-one app as its own process (apps/switchyard/src/main.ts), on PostgreSQL, so requests
 * cross a real socket and the server does not share an event loop with the load generator.
 */
export async function startAppProcess(
  databaseUrl: string,
  adminKey: string,
  port: number,
): Promise<AppProcess> {
  const root = join(__dirname, '..', '..');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--experimental-vm-modules',
      '--disable-warning=ExperimentalWarning',
      ...(process.env.BENCH_APP_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '-r',
      '@swc-node/register',
      join(root, 'apps/switchyard/src/main.ts'),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        SWITCHYARD_ACCOUNT: 'acme',
        SWITCHYARD_ADMIN_KEY: adminKey,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the app did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    baseUrl,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

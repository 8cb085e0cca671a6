import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export interface ServiceProcess {
  readonly url: string;
  readonly logFile: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface ServiceStart {
  /** The all-in-one entry point (dist/apps/switchyard/src/main.js). */
  readonly entry: string;
  /** The demo's own embedded store, made afresh on each run. */
  readonly dataDir: string;
  readonly port: number;
  readonly adminKey: string;
  /** Passed on when set (the sandbox CI's default duration). */
  readonly sandboxCiSeconds?: string;
}

/**
 * Starts the all-in-one service as `npm start` does, with only what the demo needs: the embedded
 * store in a directory of its own, the sandbox forge (no GitHub settings reach it), and an admin
 * key the demo chose. Its log goes to a file in that directory, so the terminal is the demo's.
 */
export async function startService(start: ServiceStart): Promise<ServiceProcess> {
  await ensurePortFree(start.port);
  rmSync(start.dataDir, { recursive: true, force: true });
  mkdirSync(start.dataDir, { recursive: true });
  const logFile = join(start.dataDir, 'service.log');
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--max-semi-space-size=64', start.entry], {
    env: {
      PATH: process.env.PATH ?? '',
      ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
      PORT: String(start.port),
      SWITCHYARD_DATA_DIR: start.dataDir,
      SWITCHYARD_ADMIN_KEY: start.adminKey,
      LOG_FORMAT: 'json',
      ...(start.sandboxCiSeconds ? { SWITCHYARD_SANDBOX_CI_SECONDS: start.sandboxCiSeconds } : {}),
    },
    stdio: ['ignore', log, log],
    // Its own process group: the terminal's Ctrl-C goes to the demo, which stops the service.
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://localhost:${start.port}`;
  const service: ServiceProcess = {
    url,
    logFile,
    child,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  await untilReady(service);
  return service;
}

async function untilReady(service: ServiceProcess): Promise<void> {
  let exitCode: number | null | undefined;
  void service.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      const tail = readFileSync(service.logFile, 'utf8').trim().split('\n').slice(-10).join('\n');
      throw new Error(`the service exited (${String(exitCode)}) before it was ready:\n${tail}`);
    }
    const ready = await fetch(`${service.url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await service.stop();
  throw new Error(`the service was not ready in 180 s; see ${service.logFile}`);
}

/** A clear word when the port is taken (a service already running?) rather than the service's crash. */
function ensurePortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () =>
      reject(
        new Error(
          `port ${port} is in use. Is Switchyard already running? Then point the demo at it:\n` +
            `  SWITCHYARD_URL=http://localhost:${port} SWITCHYARD_ADMIN_KEY=<its admin key> npm run demo\n` +
            `or start the demo's own service on another port: PORT=8081 npm run demo`,
        ),
      ),
    );
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(__dirname, '..', '..', '..');

/** One Switchyard process of a split deployment, started as `node apps/<entry>/src/main.ts`. */
export interface DeploymentProcess {
  readonly entry: 'api' | 'projector' | 'engine';
  readonly child: ChildProcess;
  /** Every log line so far, parsed (pino's JSON), with the wall-clock time it was read. */
  readonly lines: Array<{ at: number; line: Record<string, unknown> }>;
  /** The first log line matching, already logged (from line `from` on) or still to come. */
  line(
    matches: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
    from?: number,
  ): Promise<{ at: number; line: Record<string, unknown> }>;
  readonly exited: Promise<number | null>;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** SIGKILL: no shutdown, no lease released, as a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Spawns a process of the deployment from the sources (through SWC, no build needed) with only
 * the environment given, and follows its log on stdout.
 */
export function spawnDeploymentProcess(
  entry: DeploymentProcess['entry'],
  env: Record<string, string>,
): DeploymentProcess {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join('apps', entry, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: DeploymentProcess['lines'] = [];
  const watchers: Array<{
    matches: (line: Record<string, unknown>) => boolean;
    resolve: (entry: DeploymentProcess['lines'][number]) => void;
  }> = [];
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      line = { msg: text };
    }
    const read = { at: Date.now(), line };
    lines.push(read);
    for (const watcher of watchers.filter((w) => w.matches(line))) {
      watchers.splice(watchers.indexOf(watcher), 1);
      watcher.resolve(read);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    entry,
    child,
    lines,
    exited,
    stderr: () => stderr.join(''),
    line(matches, timeoutMs = 180_000, from = 0) {
      const found = lines.slice(from).find((read) => matches(read.line));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `${entry}: no such log line in ${timeoutMs} ms; stderr: ${stderr.join('').slice(-2000)}`,
              ),
            ),
          timeoutMs,
        );
        watchers.push({
          matches,
          resolve: (read) => {
            clearTimeout(timer);
            resolve(read);
          },
        });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`${entry} exited with ${code}; stderr: ${stderr.join('').slice(-2000)}`));
        });
      });
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The api's origin, from its "switchyard listening" line. */
export async function listeningUrl(api: DeploymentProcess): Promise<string> {
  const { line } = await api.line((l) => l.msg === 'switchyard listening');
  return String(line.url);
}

/** A client of the sandbox forge's REST API for one repository, as a team would use GitHub. */
export function forgeClient(apiUrl: string, adminKey: string, repository: string) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub shapes, read field by field
  const forge = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${apiUrl}/sandbox/github/repos/${repository}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 400 && response.status !== 404)
      throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const commit = async (branch: string, path: string, text: string) =>
    forge('PUT', `/contents/${path}`, {
      message: `edit ${path}`,
      content: Buffer.from(text).toString('base64'),
      branch,
    });
  return {
    forge,
    commit,
    async openChange(name: string): Promise<number> {
      const main = await forge('GET', '/git/ref/heads/main');
      await forge('POST', '/git/refs', { ref: `refs/heads/${name}`, sha: main.object.sha });
      await commit(name, `changes/${name}.txt`, `change ${name}\n`);
      return (await forge('POST', '/pulls', { title: `Add ${name}`, head: name, base: 'main' }))
        .number as number;
    },
    async queue(number: number): Promise<void> {
      await forge('POST', `/issues/${number}/comments`, { body: '@mergify queue' });
    },
    async merged(number: number): Promise<boolean> {
      return Boolean((await forge('GET', `/pulls/${number}`)).merged);
    },
  };
}

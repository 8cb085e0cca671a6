import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startHttpApp, switchyardProjections, type RunningHttpApp } from '@switchyard/runtime';
import { ApplicationKeyService, ServiceTokenService } from '@switchyard/auth';
import { FixedClock } from '@switchyard/kernel';
import { IN_MEMORY_DATA_DIR, loadConfig } from '@switchyard/platform';
import { ProcessorHost, rebuildBlueGreen } from '@switchyard/projection';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789abcdef';
export const TEST_ACCOUNT = 'acme';

/**
 * Bundles the dashboard as `npm run build` does (tools/build-ui.mjs). The service reads its page at
 * start: without the bundle, `/` and /ui answer 503 "not built" whatever the request.
 */
export function buildDashboard(): void {
  const root = join(__dirname, '..', '..', '..');
  execFileSync(process.execPath, [join(root, 'tools', 'build-ui.mjs')], { cwd: root, stdio: 'ignore' });
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** Sent verbatim (for malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  baseUrl: string;
  adminKey: string;
  clock: FixedClock;
  running: RunningHttpApp;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field in the specs
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  createKey(scope: 'admin' | 'ci', account?: string): Promise<string>;
  issueServiceToken(account?: string): Promise<string>;
  /** Rebuilds every projection from the events (blue-green, beside the live runners), then waits for them. */
  /** Rebuilds the named projections blue-green (every one when none is named) and waits for them. */
  rebuild(...names: string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The all-in-one app on an in-memory PGlite store, a random port and a clock the test moves.
 * Requests go over real HTTP.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SWITCHYARD_DATA_DIR: IN_MEMORY_DATA_DIR,
    SWITCHYARD_ACCOUNT: TEST_ACCOUNT,
    SWITCHYARD_ADMIN_KEY: TEST_ADMIN_KEY,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
  const running = await startHttpApp(config, { role: 'all-in-one', clock, announce: () => undefined });
  const baseUrl = running.url;

  const request = async <T>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<HttpResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? TEST_ADMIN_KEY : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if (text && response.headers.get('content-type')?.includes('application/json')) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };

  return {
    baseUrl,
    adminKey: TEST_ADMIN_KEY,
    clock,
    running,
    request,
    async createKey(scope, account = TEST_ACCOUNT) {
      const issued = await running.app
        .get(ApplicationKeyService)
        .createApplicationKey({ accountLogin: account, scope });
      return issued.secret;
    },
    async issueServiceToken(account = TEST_ACCOUNT) {
      const issued = await running.app.get(ServiceTokenService).issueServiceToken({ accountLogin: account });
      return issued.secret;
    },
    async rebuild(...names: string[]) {
      const host = running.projections as ProcessorHost;
      const projections = switchyardProjections().filter(
        (projection) => names.length === 0 || names.includes(projection.name),
      );
      if (projections.length !== Math.max(names.length, projections.length))
        throw new Error(`no projection named ${names.join(', ')}`);
      for (const projection of projections) {
        await rebuildBlueGreen({
          executor: running.storage.executor,
          store: running.storage.store,
          projection,
        });
      }
      const head = await running.storage.store.headPosition();
      await host.waitFor(host.names, head, 10_000);
    },
    close: () => running.close(),
  };
}

import { startHttpApp, type RunningHttpApp } from '@switchyard/runtime';
import { loadConfig, type SwitchyardConfig } from '@switchyard/platform';
import { runEngine, type RunningEngine } from '@switchyard/runtime';
import { runProjector } from '@switchyard/runtime';
import {
  createFreshPostgresDatabase,
  postgresAvailable,
  type FreshDatabase,
} from './fresh-postgres-database';
import { TEST_ACCOUNT, TEST_ADMIN_KEY } from './harness';

const describeOnPostgres = postgresAvailable() ? describe : describe.skip;

const configFor = (databaseUrl: string, adminKey: string | null): SwitchyardConfig =>
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    SWITCHYARD_ACCOUNT: TEST_ACCOUNT,
    SWITCHYARD_ADMIN_KEY: adminKey ?? '',
    LOG_LEVEL: 'silent',
  });

/** The secret the process printed for the bootstrap admin key. */
const printedKey = (lines: string[]): string => {
  const secret = lines.join('\n').match(/^\s+(sy_admin_\S+)$/m)?.[1];
  if (!secret) throw new Error(`no admin key was printed: ${JSON.stringify(lines)}`);
  return secret;
};

const call = async (app: RunningHttpApp, method: string, path: string, key: string, body?: unknown) => {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
};

/** The key works, and a write is visible to the next read (the read models are being kept). */
async function expectServing(app: RunningHttpApp, key: string): Promise<void> {
  const application = await call(app, 'GET', '/v1/application', key);
  expect(application).toMatchObject({ status: 200, body: { scope: 'admin' } });
  const path = `/v1/repos/${TEST_ACCOUNT}/first-start/merge-queue/pause`;
  expect((await call(app, 'PUT', path, key, { reason: 'first start' })).status).toBe(200);
  expect(await call(app, 'GET', path, key)).toMatchObject({
    status: 200,
    body: { paused: true, reason: 'first start' },
  });
}

describeOnPostgres('first start on a brand-new PostgreSQL database', () => {
  let database: FreshDatabase;
  const running: Array<{ close(): Promise<void> }> = [];
  beforeEach(async () => {
    database = await createFreshPostgresDatabase();
  });
  afterEach(async () => {
    for (const process of running.splice(0).reverse()) await process.close();
    await database.drop();
  });

  it('the all-in-one starts without SWITCHYARD_ADMIN_KEY and prints a working admin key', async () => {
    const printed: string[] = [];
    const app = await startHttpApp(configFor(database.url, null), {
      role: 'all-in-one',
      announce: (line) => printed.push(line),
    });
    running.push(app);
    await expectServing(app, printedKey(printed));
  });

  it('the all-in-one starts with SWITCHYARD_ADMIN_KEY and serves that key', async () => {
    const app = await startHttpApp(configFor(database.url, TEST_ADMIN_KEY), {
      role: 'all-in-one',
      announce: () => undefined,
    });
    running.push(app);
    await expectServing(app, TEST_ADMIN_KEY);
  });

  it('api, projector and engine started at the same instant all come up, whichever is first', async () => {
    const config = configFor(database.url, null);
    const printed: string[] = [];
    const started = await Promise.allSettled([
      startHttpApp(config, { role: 'api', announce: (line) => printed.push(line) }),
      runProjector(config),
      runEngine(config),
    ]);
    for (const outcome of started) if (outcome.status === 'fulfilled') running.push(outcome.value);
    expect(started.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'up'))).toEqual(
      ['up', 'up', 'up'],
    );
    const [api, , engine] = started as [
      PromiseFulfilledResult<RunningHttpApp>,
      unknown,
      PromiseFulfilledResult<RunningEngine>,
    ];
    let engineStopped = false;
    void engine.value.following.finally(() => (engineStopped = true));
    await expectServing(api.value, printedKey(printed));
    expect(engineStopped).toBe(false);
  });
});

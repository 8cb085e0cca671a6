import { startHttpApp, type RunningHttpApp } from '@switchyard/runtime';
import { loadConfig } from '@switchyard/platform';
import {
  eventually,
  scaledWait,
  holdAppendInFlight,
  otherDatabaseBystander,
  type HeldTransaction,
} from '@switchyard/testing';
import {
  createFreshPostgresDatabase,
  postgresAvailable,
  type FreshDatabase,
} from './fresh-postgres-database';
import { TEST_ACCOUNT, TEST_ADMIN_KEY } from './harness';

const describeOnPostgres = postgresAvailable() ? describe : describe.skip;

const start = (databaseUrl: string, env: Record<string, string> = {}): Promise<RunningHttpApp> =>
  startHttpApp(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      SWITCHYARD_ACCOUNT: TEST_ACCOUNT,
      SWITCHYARD_ADMIN_KEY: TEST_ADMIN_KEY,
      LOG_LEVEL: 'silent',
      ...env,
    }),
    { role: 'all-in-one', announce: () => undefined },
  );

const call = async (app: RunningHttpApp, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TEST_ADMIN_KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
};

const PAUSE = `/v1/repos/${TEST_ACCOUNT}/open-transactions/merge-queue/pause`;

/**
 * Issue 33, defect 5: a transaction left open elsewhere on the PostgreSQL server (another
 * database: an analytics job, a psql prompt) used to hold every feed reader back, so writes waited
 * out their read-your-writes timeout and answered 200 with a state the next read contradicted, and
 * a fresh start said ready while the admin key was refused. And a write whose read model really is
 * held back (here by an append left in flight) answers 202, not 200.
 */
describeOnPostgres('the all-in-one on PostgreSQL beside transactions held open', () => {
  let database: FreshDatabase;
  const held: HeldTransaction[] = [];
  const running: RunningHttpApp[] = [];
  beforeEach(async () => {
    database = await createFreshPostgresDatabase();
  });
  afterEach(async () => {
    for (const transaction of held.splice(0)) await transaction.release();
    for (const app of running.splice(0)) await app.close();
    await database.drop();
  });

  it('with a transaction open in another database, a pause answers 200 and the next read shows it', async () => {
    const app = await start(database.url);
    running.push(app);
    held.push(await otherDatabaseBystander(process.env.DATABASE_URL!).hold());

    expect(await call(app, 'PUT', PAUSE, { reason: 'beside an open transaction' })).toMatchObject({
      status: 200,
      body: { reason: 'beside an open transaction' },
    });
    expect(await call(app, 'GET', PAUSE)).toMatchObject({
      status: 200,
      body: { paused: true, reason: 'beside an open transaction' },
    });
  });

  it('a fresh start beside a transaction open in another database is ready only once its key works', async () => {
    held.push(await otherDatabaseBystander(process.env.DATABASE_URL!).hold());
    const app = await start(database.url);
    running.push(app);

    await eventually('/readyz to answer 200', async () => (await fetch(`${app.url}/readyz`)).status === 200, {
      timeoutMs: scaledWait(20_000),
    });
    expect(await call(app, 'GET', '/v1/application')).toMatchObject({
      status: 200,
      body: { scope: 'admin' },
    });
  });

  it('a write its read model does not show in time answers 202, and the change shows once it catches up', async () => {
    const app = await start(database.url, { SWITCHYARD_READ_YOUR_WRITES_TIMEOUT_MS: '300' });
    running.push(app);
    const inFlight = await holdAppendInFlight(database.url);
    held.push(inFlight);

    // The body is what the write decided; the status says the reads do not show it yet.
    expect(await call(app, 'PUT', PAUSE, { reason: 'held back' })).toMatchObject({
      status: 202,
      body: { reason: 'held back' },
    });
    expect(await call(app, 'GET', PAUSE)).toMatchObject({ status: 200, body: { paused: false } });
    // A write whose success has no body says it in {"detail"}.
    const unpause = await call(app, 'DELETE', PAUSE);
    expect(unpause.status).toBe(202);
    expect(unpause.body?.detail).toMatch(/stored and will take effect, but reads do not show it yet/);

    held.splice(held.indexOf(inFlight), 1);
    await inFlight.release();
    // Read-your-writes waits 300 ms here, which a loaded machine may spend before the read models
    // catch up with the released append: the write is asked again until its reads show it.
    await eventually(
      'the pause answers 200 once its reads catch up',
      async () => (await call(app, 'PUT', PAUSE, { reason: 'caught up' })).status === 200,
      { timeoutMs: scaledWait(30_000), intervalMs: 200 },
    );
    expect(await call(app, 'GET', PAUSE)).toMatchObject({
      status: 200,
      body: { paused: true, reason: 'caught up' },
    });
  });
});

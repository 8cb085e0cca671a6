import { authCredentialsProjection } from '@switchyard/auth';
import { eventually, scaledWait } from '@switchyard/testing';
import { startTestApp, type TestApp } from './harness';

const CREDENTIALS = authCredentialsProjection.name;

interface Readiness {
  checks: Array<{ name: string; ok: boolean; error?: string; details?: Record<string, unknown> }>;
}

/**
 * Issue 33: a fresh start answered /readyz 200 while the admin key got 403, because nothing in
 * readiness asked whether the credentials read model had caught up. Every request is checked
 * against it, so the process is ready only once it has reached the head as of start.
 */
describe('/readyz and the credentials read model (all-in-one app)', () => {
  let app: TestApp;
  afterEach(() => app?.close());

  it('is not ready while the credentials lag behind the head as of start, and is once they reach it', async () => {
    app = await startTestApp();
    const credentials = app.running.projections!.runner(CREDENTIALS)!;
    await credentials.stop();
    // Appended, but the stopped runner does not apply it: the key is not known yet.
    const key = await app.createKey('admin');

    const notReady = await app.request<Readiness>('GET', '/readyz', { token: null });
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks.find((check) => check.name === 'caught_up')).toMatchObject({
      ok: false,
      details: { behind: [CREDENTIALS] },
    });
    const unknownYet = await app.request('GET', '/v1/application', { token: key });
    expect(unknownYet.status).toBe(403);
    expect(unknownYet.body).toEqual({ detail: 'Invalid, revoked or expired credential' });

    credentials.start();
    await eventually(
      '/readyz to answer 200',
      async () => (await app.request('GET', '/readyz', { token: null })).status === 200,
      { timeoutMs: scaledWait(60_000) },
    );
    expect((await app.request('GET', '/v1/application', { token: key })).status).toBe(200);
  }, 120_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, TEST_ACCOUNT, TEST_ADMIN_KEY, type TestApp } from './harness';

describe('foundation over HTTP (all-in-one app)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('GET /v1/application answers the calling admin key', async () => {
    const response = await app.request('GET', '/v1/application');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: expect.any(String),
      scope: 'admin',
      account_scope: { id: expect.any(Number), login: TEST_ACCOUNT },
    });
  });

  it('GET /v1/application answers a ci key with its own scope', async () => {
    const ciKey = await app.createKey('ci');
    const response = await app.request('GET', '/v1/application', { token: ciKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ scope: 'ci', account_scope: { login: TEST_ACCOUNT } });
  });

  it('refuses a missing or unknown credential with 403 {detail} and no Retry-After', async () => {
    for (const [token, detail] of [
      [null, 'Authentication required: send Authorization: Bearer <application key or token>'],
      ['sy_admin_unknown-secret-value-000000000000', 'Invalid, revoked or expired credential'],
    ] as const) {
      const response = await app.request('GET', '/v1/application', { token });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ detail });
      expect(response.headers.get('retry-after')).toBeNull();
      expect(response.headers.get('x-ratelimit-remaining')).toBeNull();
    }
  });

  it('refuses a service token on GET /v1/application (APP accepts application keys only)', async () => {
    const token = await app.issueServiceToken();
    const response = await app.request('GET', '/v1/application', { token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ detail: 'This endpoint does not accept service tokens' });
  });

  it('serves health, readiness and the OpenAPI document without credentials', async () => {
    expect((await app.request('GET', '/healthz', { token: null })).status).toBe(200);
    const ready = await app.request('GET', '/readyz', { token: null });
    expect(ready.status).toBe(200);
    const openapi = await app.request<{ openapi: string; paths: Record<string, unknown> }>(
      'GET',
      '/v1/openapi.json',
      {
        token: null,
      },
    );
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toMatch(/^3\./);
    expect(Object.keys(openapi.body.paths)).toContain('/v1/application');
  });

  it('answers unknown routes with 404 {detail} and tags every response with a request id', async () => {
    const response = await app.request('GET', '/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not Found' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('restart on the embedded store', () => {
  it('keeps keys and events across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-e2e-'));
    try {
      const first = await startTestApp({ SWITCHYARD_DATA_DIR: dataDir });
      const ciKey = await first.createKey('ci');
      const head = await first.running.storage.store.headPosition();
      await first.close();

      const second = await startTestApp({ SWITCHYARD_DATA_DIR: dataDir });
      try {
        expect(await second.running.storage.store.headPosition()).toBe(head);
        expect((await second.request('GET', '/v1/application', { token: ciKey })).status).toBe(200);
        expect((await second.request('GET', '/v1/application', { token: TEST_ADMIN_KEY })).status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/** The `switchyard_session=…` pair a sign-in answer sets, ready to send back as a Cookie header. */
const cookieOf = (setCookie: string | null): string => {
  if (!setCookie) throw new Error('no Set-Cookie header');
  return setCookie.split(';')[0];
};

/**
 * The dashboard's session: a credential exchanged once for an HttpOnly, SameSite=Strict cookie
 * that grants what the credential grants, no more, and the pages it guards.
 */
describe('dashboard session (all-in-one app)', () => {
  jest.setTimeout(120_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  }, 120_000);
  afterAll(() => app?.close());

  const signIn = (credential: string) =>
    app.request('POST', '/ui/session', { token: null, body: { credential } });

  it('exchanges an admin key for an HttpOnly, SameSite=Strict cookie that the API accepts as the key', async () => {
    const repository = uniqueRepository('session');
    const signedIn = await signIn(app.adminKey);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ kind: 'admin_key', name: expect.any(String), accounts: ['acme'] });
    const setCookie = signedIn.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^switchyard_session=/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);
    const cookie = cookieOf(setCookie);

    const pause = await app.request('GET', `/v1/repos/${repository}/merge-queue/pause`, {
      token: null,
      headers: { cookie },
    });
    expect(pause.status).toBe(200);
    const session = await app.request('GET', '/ui/session', { token: null, headers: { cookie } });
    expect(session.body).toEqual(signedIn.body);
    // Another account's repository stays out of reach, as it is for the key itself.
    const elsewhere = await app.request('GET', '/v1/repos/elsewhere/thing/merge-queue/pause', {
      token: null,
      headers: { cookie },
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toEqual({ detail: "This credential has no access to the account 'elsewhere'" });
  });

  it('a CI key signs in, and its cookie is refused where the API refuses the key', async () => {
    const repository = uniqueRepository('session-ci');
    const ciKey = await app.createKey('ci');
    const signedIn = await signIn(ciKey);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ kind: 'ci_key' });
    const cookie = cookieOf(signedIn.headers.get('set-cookie'));
    const status = await app.request('GET', `/v1/repos/${repository}/merge-queue/status`, {
      token: null,
      headers: { cookie },
    });
    const direct = await app.request('GET', `/v1/repos/${repository}/merge-queue/status`, { token: ciKey });
    expect(status.status).toBe(403);
    expect(status.body).toEqual(direct.body);
    const application = await app.request('GET', '/v1/application', { token: null, headers: { cookie } });
    expect(application.status).toBe(200);
  });

  it('refuses an unknown credential without setting a cookie', async () => {
    const refused = await signIn('sy_admin_not-a-real-key');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Invalid, revoked or expired credential' });
    expect(refused.headers.get('set-cookie')).toBeNull();
    const empty = await signIn('');
    expect(empty.status).toBe(403);
    expect(empty.body).toEqual({ detail: 'Invalid, revoked or expired credential' });
  });

  it('a header credential wins over the cookie', async () => {
    const ciKey = await app.createKey('ci');
    const cookie = cookieOf((await signIn(app.adminKey)).headers.get('set-cookie'));
    const status = await app.request('GET', `/v1/repos/${uniqueRepository('header')}/merge-queue/status`, {
      token: ciKey,
      headers: { cookie },
    });
    expect(status.status).toBe(403);
    expect(status.body).toEqual({ detail: 'This endpoint does not accept CI application keys' });
  });

  it('signs out by expiring the cookie', async () => {
    const signedOut = await app.request('DELETE', '/ui/session', { token: null });
    expect(signedOut.status).toBe(204);
    expect(signedOut.headers.get('set-cookie')).toMatch(/^switchyard_session=; Max-Age=0/);
  });

  it('pages redirect to sign-in without a session; / goes to /ui; the API keeps its 404s', async () => {
    const page = await fetch(`${app.baseUrl}/ui/repos/acme/x`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/ui/sign-in');
    const root = await fetch(`${app.baseUrl}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/ui');
    const unknown = await app.request('GET', '/v1/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Not Found' });
    expect((await app.request('GET', '/v1/openapi.json', { token: null })).status).toBe(200);
  });
});

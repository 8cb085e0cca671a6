import { generateKeyPairSync } from 'node:crypto';
import examples from '@octokit/webhooks-examples/api.github.com/index.json';
import { Webhooks } from '@octokit/webhooks';
import { RepositoryCoverage } from '@switchyard/code-host/pull-requests';
import { startTestApp, type TestApp } from './harness';

/**
 * GitHub mode (an App configured): the service starts without the sandbox forge, verifies
 * deliveries with the App's webhook secret, and serves the repositories an installation covers
 * (any other answers 404).
 */
const SECRET = 'github-mode-webhook-secret';
const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
  type: 'pkcs1',
  format: 'pem',
}) as string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub's example payloads, edited field by field
type Payload = Record<string, any>;
const example = (event: string, action: string): Payload =>
  structuredClone(
    (examples as { name: string; examples: Payload[] }[])
      .find((group) => group.name === event)!
      .examples.find((payload) => payload.action === action)!,
  );

describe('GitHub mode', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      SWITCHYARD_GITHUB_APP_ID: '123456',
      SWITCHYARD_GITHUB_PRIVATE_KEY: privateKey,
      SWITCHYARD_GITHUB_WEBHOOK_SECRET: SECRET,
      SWITCHYARD_GITHUB_API_URL: 'http://127.0.0.1:9/api/v3',
    });
  }, 180_000);
  afterAll(() => app?.close());

  async function deliver(event: string, payload: Payload, deliveryId: string) {
    const body = JSON.stringify(payload);
    return app.request('POST', '/webhooks/github', {
      token: null,
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        'x-github-event': event,
        'x-github-delivery': deliveryId,
        'x-hub-signature-256': await new Webhooks({ secret: SECRET }).sign(body),
      },
    });
  }

  it('does not mount the sandbox forge', async () => {
    expect((await app.request('GET', '/sandbox/github/repos/acme/app')).status).toBe(404);
  });

  it('serves the repositories an installation covers, and stops when they are removed from it', async () => {
    const coverage = app.running.app.get(RepositoryCoverage);
    const added = example('installation_repositories', 'added');
    added.repositories_added = [{ ...added.repositories_added[0], full_name: 'Acme/Covered' }];
    expect((await deliver('installation_repositories', added, 'install-1')).status).toBe(202);
    const head = await app.running.storage.store.headPosition();
    await app.running.projections!.waitFor(['code_host.installed_repositories'], head, 20_000);
    expect(await coverage.covers('acme/covered')).toBe(true);
    expect(await coverage.covers('acme/elsewhere')).toBe(false);
    // The API serves a covered repository and answers 404 for any other, after the key is checked.
    const freezes = (repository: string, token?: string | null) =>
      app.request('GET', `/v1/repos/${repository}/scheduled_freeze`, { token });
    expect((await freezes('Acme/Covered')).status).toBe(200);
    expect((await freezes('acme/elsewhere')).status).toBe(404);
    expect((await freezes('acme/elsewhere', null)).status).toBe(403);
    expect((await freezes('acme/bad%20name')).status).toBe(422);

    const removed = example('installation_repositories', 'removed');
    removed.installation.id = added.installation.id;
    removed.repositories_removed = [{ ...removed.repositories_removed[0], full_name: 'Acme/Covered' }];
    expect((await deliver('installation_repositories', removed, 'install-2')).status).toBe(202);
    await app.running.projections!.waitFor(
      ['code_host.installed_repositories'],
      await app.running.storage.store.headPosition(),
      20_000,
    );
    expect(await coverage.covers('acme/covered')).toBe(false);
    expect((await freezes('acme/covered')).status).toBe(404);
  });

  it('refuses deliveries signed with anything but the App secret', async () => {
    const body = JSON.stringify(example('installation', 'created'));
    const answer = await app.request('POST', '/webhooks/github', {
      token: null,
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'installation',
        'x-github-delivery': 'wrong-secret',
        'x-hub-signature-256': await new Webhooks({ secret: 'not-the-app-secret' }).sign(body),
      },
    });
    expect(answer.status).toBe(401);
  });
});

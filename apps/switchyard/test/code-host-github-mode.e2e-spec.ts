import { generateKeyPairSync } from 'node:crypto';
import examples from '@octokit/webhooks-examples/api.github.com/index.json';
import { Webhooks } from '@octokit/webhooks';
import { RepositoryCoverage } from '@switchyard/code-host/pull-requests';
import { fakeGitHubApp, type FakeGitHubApp } from '@switchyard/github/testing/fake-github-app';
import { eventually, scaledWait } from '@switchyard/testing';
import { startTestApp, type TestApp } from './harness';

/**
 * GitHub mode (an App configured): the service starts without the sandbox forge, verifies
 * deliveries with the App's webhook secret, and serves the repositories an installation covers
 * (any other answers 404), learning them from the installation webhooks and, at start-up, from a
 * listing of the App's installations (a fake GitHub that checks the App's JWT).
 */
const SECRET = 'github-mode-webhook-secret';
const APP_ID = 123456;
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateKey = keys.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;

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
  let github: FakeGitHubApp;

  beforeAll(async () => {
    // Installed before the service first starts: no webhook will ever tell it about acme/listed.
    github = await fakeGitHubApp({
      appId: APP_ID,
      publicKey: keys.publicKey,
      installations: [{ id: 9001, account: 'acme', repositories: ['acme/listed'] }],
    });
    app = await startTestApp({
      SWITCHYARD_GITHUB_APP_ID: String(APP_ID),
      SWITCHYARD_GITHUB_PRIVATE_KEY: privateKey,
      SWITCHYARD_GITHUB_WEBHOOK_SECRET: SECRET,
      SWITCHYARD_GITHUB_API_URL: github.apiUrl,
    });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await github?.close();
  });

  // First: the webhook tests below record facts of another installation, which a listing still
  // under way would not know of.
  it('covers the repositories the App was installed on before it started, with no webhook', async () => {
    const pause = (repository: string) => app.request('GET', `/v1/repos/${repository}/merge-queue/pause`);
    await eventually('acme/listed to be covered', async () => (await pause('acme/listed')).status === 200, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    const unlisted = await pause('acme/unlisted');
    expect(unlisted.status).toBe(404);
    expect(unlisted.body).toEqual({ detail: 'No installation of the GitHub App covers acme/unlisted' });
    expect(github.log).toEqual([
      'GET /app/installations (app)',
      'POST /app/installations/9001/access_tokens (app)',
      'GET /installation/repositories (ghs_1)',
    ]);
  });

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
    const forge = await app.request('GET', '/sandbox/github/repos/acme/app');
    expect(forge.status).toBe(404);
    expect(forge.body).toEqual({ detail: 'Not Found' });
  });

  it('serves the repositories an installation covers, and stops when they are removed from it', async () => {
    const coverage = app.running.app.get(RepositoryCoverage);
    const added = example('installation_repositories', 'added');
    added.repositories_added = [{ ...added.repositories_added[0], full_name: 'Acme/Covered' }];
    expect((await deliver('installation_repositories', added, 'install-1')).status).toBe(202);
    const head = await app.running.storage.store.headPosition();
    expect(
      await app.running.projections!.waitFor(['code_host.installed_repositories'], head, scaledWait(20_000)),
    ).toBe(true);
    expect(await coverage.covers('acme/covered')).toBe(true);
    expect(await coverage.covers('acme/elsewhere')).toBe(false);
    // The API serves a covered repository and answers 404 for any other, after the key is checked.
    const freezes = (repository: string, token?: string | null) =>
      app.request('GET', `/v1/repos/${repository}/scheduled_freeze`, { token });
    expect((await freezes('Acme/Covered')).status).toBe(200);
    const elsewhere = await freezes('acme/elsewhere');
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({ detail: 'No installation of the GitHub App covers acme/elsewhere' });
    const anonymous = await freezes('acme/elsewhere', null);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({
      detail: 'Authentication required: send Authorization: Bearer <application key or token>',
    });
    const badName = await freezes('acme/bad%20name');
    expect(badName.status).toBe(422);
    expect(badName.body).toEqual({
      detail: [
        {
          type: 'string_pattern_mismatch',
          loc: ['path', 'repository'],
          msg: "String should match pattern '^[\\w\\-\\.]+$'",
          input: 'bad name',
          ctx: { pattern: '^[\\w\\-\\.]+$' },
        },
      ],
    });

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
    const uncovered = await freezes('acme/covered');
    expect(uncovered.status).toBe(404);
    expect(uncovered.body).toEqual({ detail: 'No installation of the GitHub App covers acme/covered' });
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
    expect(answer.body).toEqual({ detail: 'The X-Hub-Signature-256 signature is missing or does not match' });
  });
});

import { pullRequestScopesStreamId } from '@switchyard/merge-queue/domain/scopes/pull-request-scopes';
import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
type Json = any;

/** `PUT` and the deprecated `POST pulls/{number}/scopes` (what `mergify ci scopes-send` calls), over HTTP. */
describe('pull request scopes (all-in-one app)', () => {
  let app: TestApp;
  let ciKey: string;

  beforeAll(async () => {
    app = await startTestApp();
    ciKey = await app.createKey('ci');
  }, 120_000);
  afterAll(() => app?.close());

  const recorded = async (repository: string, number: number) => {
    const { events } = await app.running.storage.store.readStream(
      pullRequestScopesStreamId(repository, number),
    );
    return events.map((event) => event.data as { scopes: string[]; allScopes: boolean });
  };

  it('POST (the CLI) and PUT answer 204 with no body; duplicates are one scope; the same set twice records once', async () => {
    const repository = uniqueRepository('scopes');
    const path = `/v1/repos/${repository}/pulls/12/scopes`;
    const posted = await app.request('POST', path, {
      token: ciKey,
      body: { scopes: ['web', 'api', 'web'], all_scopes: false },
    });
    expect(posted.status).toBe(204);
    expect(posted.text).toBe('');
    const again = await app.request('PUT', path, { token: ciKey, body: { scopes: ['api', 'web'] } });
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
    const barrier = await app.request('PUT', path, { token: ciKey, body: { scopes: [], all_scopes: true } });
    expect(barrier.status).toBe(204);
    expect(await recorded(repository, 12)).toEqual([
      expect.objectContaining({ scopes: ['api', 'web'], allScopes: false }),
      expect.objectContaining({ scopes: [], allScopes: true }),
    ]);
  });

  it('needs a CI key, and refuses a malformed body with 422 and nothing recorded', async () => {
    const repository = uniqueRepository('scopes');
    const path = `/v1/repos/${repository}/pulls/3/scopes`;
    const withAdminKey = await app.request('PUT', path, { body: { scopes: ['api'] } });
    expect(withAdminKey.status).toBe(403);
    expect(withAdminKey.body).toEqual({ detail: 'This endpoint does not accept admin application keys' });
    const notAList = await app.request('PUT', path, { token: ciKey, body: { scopes: 'api' } });
    expect(notAList.status).toBe(422);
    expect(notAList.body.detail[0]).toMatchObject({ loc: ['body', 'scopes'] });
    const badFlag = await app.request('POST', path, {
      token: ciKey,
      body: { scopes: ['api'], all_scopes: 'yes' },
    });
    expect(badFlag.status).toBe(422);
    expect(badFlag.body.detail[0]).toMatchObject({ loc: ['body', 'all_scopes'] });
    expect(await recorded(repository, 3)).toEqual([]);
  });
});

/**
 * Read-your-writes for scopes: the status API shows a queued pull request's scopes, and a client
 * that sent them reads them there in the very next request, whether or not the engine has read the
 * report yet (here it has not: its intake is stopped).
 */
describe('pull request scopes, then the status (all-in-one app, CI that never ends)', () => {
  jest.setTimeout(300_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '3600' });
  }, 120_000);
  afterAll(() => app?.close());

  it('the status shows the scopes of a queued pull request as soon as they are answered for', async () => {
    const ciKey = await app.createKey('ci');
    const team = new SandboxTeam(app, uniqueRepository('scopes-status'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
    const number = await team.openChange('scoped');
    await team.comment(number, '@mergify queue');
    const status = `/v1/repos/${team.repository}/merge-queue/status`;
    const shown = async () => {
      const { body } = await app.request('GET', status);
      const pulls = [...body.batches.flatMap((b: Json) => b.pull_requests), ...body.waiting_pull_requests];
      return pulls.find((pull: Json) => pull.number === number) as Json;
    };
    await team.until('the status lists it', async () => (await shown()) !== undefined);
    expect(await shown()).toMatchObject({ scopes: [], all_scopes: false });
    await app.running.projections!.runner('merge_queue.intake')!.stop();

    const path = `/v1/repos/${team.repository}/pulls/${number}/scopes`;
    const posted = await app.request('POST', path, { token: ciKey, body: { scopes: ['web', 'api'] } });
    expect(posted.status).toBe(204);
    expect(await shown()).toMatchObject({ scopes: ['api', 'web'], all_scopes: false });
    const put = await app.request('PUT', path, { token: ciKey, body: { scopes: [], all_scopes: true } });
    expect(put.status).toBe(204);
    expect(await shown()).toMatchObject({ scopes: [], all_scopes: true });

    // The engine, reading the reports later, finds them recorded and records nothing more.
    const scopesSet = async () =>
      (await team.queueEvents()).filter((e) => e.type === 'merge_queue.scopes_set').length;
    const recorded = await scopesSet();
    expect(recorded).toBe(2);
    app.running.projections!.runner('merge_queue.intake')!.start();
    const head = await app.running.storage.store.headPosition();
    expect(await app.running.projections!.waitFor(['merge_queue.intake'], head, 60_000)).toBe(true);
    expect(await scopesSet()).toBe(recorded);
  });
});

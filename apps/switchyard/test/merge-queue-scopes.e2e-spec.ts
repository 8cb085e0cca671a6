import { pullRequestScopesStreamId } from '@switchyard/merge-queue/domain/scopes/pull-request-scopes';
import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

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
    expect((await app.request('PUT', path, { body: { scopes: ['api'] } })).status).toBe(403);
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

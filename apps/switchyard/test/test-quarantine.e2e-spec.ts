import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * Test quarantines over HTTP against the all-in-one app: the lifecycle the CLI drives (add, list
 * without per_page, remove, 404 on a second removal), the junit-process check (client-contract
 * §1.7), list filters, sorts and cursors, the refusals' bodies, the auto-quarantine switch, and the
 * activity-log records each change leaves. Each test takes a repository of its own.
 */
describe('test quarantines over HTTP (all-in-one app)', () => {
  let app: TestApp;
  let admin: { type: 'application'; id: string; name: string };

  beforeAll(async () => {
    app = await startTestApp();
    const application = await app.request<{ id: string; name: string }>('GET', '/v1/application');
    admin = { type: 'application', id: application.body.id, name: application.body.name };
  }, 120_000);
  afterAll(() => app.close());

  const quarantinesPath = (repo: string) => {
    const [owner, name] = repo.split('/');
    return `/v1/ci/${owner}/repositories/${name}/quarantines`;
  };
  const autoQuarantinePath = (repo: string) =>
    quarantinesPath(repo).replace(/quarantines$/, 'auto-quarantine');

  async function givenQuarantine(
    repo: string,
    body: Record<string, unknown>,
    token?: string,
  ): Promise<string> {
    const response = await app.request<{ id: string }>('POST', quarantinesPath(repo), { body, token });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body)).toEqual(['id']);
    return response.body.id;
  }

  /** The activity log of `repo`, oldest first, restricted to quarantine types. */
  async function logOf(repo: string): Promise<Array<{ type: string; trigger: string; metadata: unknown }>> {
    const window = `received_from=${encodeURIComponent('2026-03-01T00:00:00Z')}&received_to=${encodeURIComponent('2026-04-30T00:00:00Z')}&per_page=100`;
    const response = await app.request('GET', `/v1/repos/${repo}/logs?${window}`);
    expect(response.status).toBe(200);
    return response.body.events
      .filter((event: { type: string }) => /^(test\.|ci_insights\.auto_quarantine)/.test(event.type))
      .reverse();
  }

  it('adds, lists, shows and removes a quarantine as the CLI does, and logs both changes', async () => {
    const repo = uniqueRepository('quarantine-life');
    app.clock.set('2026-03-02T10:00:00.000Z');
    // The CLI's `tests quarantines add/remove` run with a person's key; a CI key lists (spec QUAR).
    const personKey = await app.createKey('admin');
    const ciKey = await app.createKey('ci');
    const id = await givenQuarantine(
      repo,
      { test_name: 'tests/test_login.py::test_login', reason: 'flaky' },
      personKey,
    );

    const listed = await app.request('GET', quarantinesPath(repo), { token: ciKey });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('link')).toBeNull();
    const expected = {
      id,
      test_name: 'tests/test_login.py::test_login',
      test_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      reason: 'flaky',
      branch: null,
      branch_name: null,
      pipeline_name: null,
      job_name: null,
      created_at: '2026-03-02T10:00:00.000Z',
      health_status: null,
      is_recovered: false,
      unquarantine_when_healthy: false,
      source: 'manual',
    };
    expect(listed.body).toEqual({ size: 1, per_page: null, quarantined_tests: [expected], total: 1 });
    expect(await app.request('GET', `${quarantinesPath(repo)}/${id.toUpperCase()}`)).toMatchObject({
      status: 200,
      body: expected,
    });

    app.clock.set('2026-03-02T11:00:00.000Z');
    const removed = await app.request('DELETE', `${quarantinesPath(repo)}/${id}`, { token: personKey });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');

    const detail = { detail: 'The quarantine with the given id does not exist' };
    expect(await app.request('DELETE', `${quarantinesPath(repo)}/${id}`)).toMatchObject({
      status: 404,
      body: detail,
    });
    expect(await app.request('GET', `${quarantinesPath(repo)}/${id}`)).toMatchObject({
      status: 404,
      body: detail,
    });
    expect((await app.request('GET', quarantinesPath(repo))).body).toEqual({
      size: 0,
      per_page: null,
      quarantined_tests: [],
      total: 0,
    });

    const ci = { type: 'application', id: expect.any(String), name: expect.any(String) };
    expect(await logOf(repo)).toEqual([
      expect.objectContaining({
        type: 'test.quarantined',
        trigger: 'api',
        received_at: '2026-03-02T10:00:00.000Z',
        pull_request: null,
        metadata: {
          quarantine_id: id,
          test_id: expected.test_id,
          test_name: 'tests/test_login.py::test_login',
          source: 'manual',
          reason: 'flaky',
          branch: null,
          quarantined_at: '2026-03-02T10:00:00.000Z',
          health_status_at_event: 'healthy',
          quarantined_by: ci,
          quarantined_by_staff: false,
        },
      }),
      expect.objectContaining({
        type: 'test.dequarantined',
        trigger: 'api',
        received_at: '2026-03-02T11:00:00.000Z',
        metadata: {
          quarantine_id: id,
          test_id: expected.test_id,
          test_name: 'tests/test_login.py::test_login',
          source: 'manual',
          original_quarantine: {
            source: 'manual',
            reason: 'flaky',
            branch: null,
            created_at: '2026-03-02T10:00:00.000Z',
            health_status_at_event: 'healthy',
          },
          health_status_at_event: 'healthy',
          dequarantined_at: '2026-03-02T11:00:00.000Z',
          dequarantined_by: ci,
          dequarantined_by_staff: false,
        },
      }),
    ]);
  });

  it('answers 409 with a detail for a duplicate of an active quarantine, and takes it on another branch', async () => {
    const repo = uniqueRepository('quarantine-dup');
    await givenQuarantine(repo, { test_name: 'test_a', reason: 'r', branch: 'main' });
    const duplicate = await app.request('POST', quarantinesPath(repo), {
      body: { test_name: 'test_a', reason: 'again', branch: 'main' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ detail: "Test 'test_a' is already quarantined" });
    await givenQuarantine(repo, { test_name: 'test_a', reason: 'everywhere' });
    expect((await app.request('GET', quarantinesPath(repo))).body.total).toBe(2);
  });

  it('refuses malformed requests with FastAPI-shaped 422s', async () => {
    const repo = uniqueRepository('quarantine-422');
    const missing = await app.request('POST', quarantinesPath(repo), { body: { test_name: 'x' } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([
      expect.objectContaining({ type: 'missing', loc: ['body', 'reason'] }),
    ]);
    const tooLong = await app.request('POST', quarantinesPath(repo), {
      body: { test_name: 'x'.repeat(10001), reason: 'r' },
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail[0]).toMatchObject({ type: 'string_too_long', loc: ['body', 'test_name'] });
    const badId = await app.request('GET', `${quarantinesPath(repo)}/not-a-uuid`);
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'quarantine_id'] });
    const badPage = await app.request('GET', `${quarantinesPath(repo)}?per_page=0`);
    expect(badPage.status).toBe(422);
    expect(badPage.body.detail[0]).toMatchObject({ loc: ['query', 'per_page'] });
    const badCheck = await app.request('POST', `${quarantinesPath(repo)}/check`, {
      body: { branch: 'main' },
    });
    expect(badCheck.status).toBe(422);
    expect(badCheck.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'tests_names'] });
  });

  it('splits failing test names as junit-process expects, per branch, with a CI key', async () => {
    const repo = uniqueRepository('quarantine-check');
    const ciKey = await app.createKey('ci');
    await givenQuarantine(repo, { test_name: 'test_everywhere', reason: 'r' });
    await givenQuarantine(repo, { test_name: 'test_release', reason: 'r', branch: 'release/1.x' });
    const check = (branch: string) =>
      app.request('POST', `${quarantinesPath(repo)}/check`, {
        token: ciKey,
        body: { tests_names: ['test_everywhere', 'test_release', 'test_other', 'test_everywhere'], branch },
      });
    expect(await check('main')).toMatchObject({
      status: 200,
      body: {
        quarantined_tests_names: ['test_everywhere', 'test_everywhere'],
        non_quarantined_tests_names: ['test_release', 'test_other'],
      },
    });
    expect((await check('release/1.x')).body).toEqual({
      quarantined_tests_names: ['test_everywhere', 'test_release', 'test_everywhere'],
      non_quarantined_tests_names: ['test_other'],
    });
    // CLIs from before July 2025: another path, no branch, so only every-branch quarantines apply.
    const [owner, name] = repo.split('/');
    expect(
      await app.request('POST', `/v1/ci/${owner}/${name}/quarantine/check`, {
        token: ciKey,
        body: { tests_names: ['test_everywhere', 'test_release'] },
      }),
    ).toMatchObject({
      status: 200,
      body: { quarantined_tests_names: ['test_everywhere'], non_quarantined_tests_names: ['test_release'] },
    });
  });

  it('filters with the all-scope rule, sorts, and pages with Link cursors when per_page is given', async () => {
    const repo = uniqueRepository('quarantine-list');
    const names = ['test_c', 'test_a', 'test_d', 'test_b'];
    const ids: Record<string, string> = {};
    for (const [index, name] of names.entries()) {
      app.clock.set(`2026-03-0${index + 1}T00:00:00.000Z`);
      ids[name] = await givenQuarantine(repo, {
        test_name: name,
        reason: 'r',
        ...(name === 'test_a' ? { branch: 'main' } : name === 'test_b' ? { branch: 'dev' } : {}),
      });
    }
    const namesOf = async (query: string) => {
      const response = await app.request('GET', `${quarantinesPath(repo)}?${query}`);
      expect(response.status).toBe(200);
      return response.body.quarantined_tests.map((q: { test_name: string }) => q.test_name);
    };
    expect(await namesOf('')).toEqual(names);
    expect(await namesOf('branch_name=main')).toEqual(['test_c', 'test_a', 'test_d']);
    expect(await namesOf('branch_name_exclude=main')).toEqual(['test_c', 'test_d', 'test_b']);
    expect(await namesOf('branch=dev')).toEqual(['test_c', 'test_d', 'test_b']);
    expect(await namesOf('pipeline_name=ci&job_name=unit')).toEqual(names);
    expect(await namesOf('test_name=test_a&test_name=test_b')).toEqual(['test_a', 'test_b']);
    expect(await namesOf(`test_id=${'0'.repeat(8)}-0000-5000-8000-${'0'.repeat(12)}`)).toEqual([]);
    expect(await namesOf('source=auto')).toEqual([]);
    expect(await namesOf('health_status=flaky')).toEqual([]);
    expect(await namesOf('health_status_exclude=flaky')).toEqual(names);
    expect(await namesOf('sort=test_name&direction=desc')).toEqual(['test_d', 'test_c', 'test_b', 'test_a']);

    const first = await app.request('GET', `${quarantinesPath(repo)}?per_page=3&sort=test_name`);
    expect(first.body).toMatchObject({ size: 3, per_page: 3, total: 4 });
    expect(first.body.quarantined_tests.map((q: { id: string }) => q.id)).toEqual([
      ids.test_a,
      ids.test_b,
      ids.test_c,
    ]);
    const link = first.headers.get('link')!;
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    expect(next.startsWith(app.baseUrl)).toBe(true);
    const second = await app.request('GET', next.slice(app.baseUrl.length));
    expect(second.body).toMatchObject({ size: 1, per_page: 3, total: 4 });
    expect(second.body.quarantined_tests[0].test_name).toBe('test_d');
    const prev = /<([^>]+)>; rel="prev"/.exec(second.headers.get('link')!)![1]!;
    const back = await app.request('GET', prev.slice(app.baseUrl.length));
    expect(back.body.quarantined_tests.map((q: { test_name: string }) => q.test_name)).toEqual([
      'test_a',
      'test_b',
      'test_c',
    ]);
    const otherOrder = await app.request(
      'GET',
      `${quarantinesPath(repo)}?per_page=3&sort=created_at&${new URL(next).search
        .slice(1)
        .split('&')
        .find((p) => p.startsWith('cursor='))}`,
    );
    expect(otherOrder).toMatchObject({ status: 422, body: { detail: 'Invalid cursor' } });
  });

  it('switches auto-quarantine per repository through the admin route and logs each change', async () => {
    const repo = uniqueRepository('auto-quarantine');
    app.clock.set('2026-03-05T09:00:00.000Z');
    expect(await app.request('GET', autoQuarantinePath(repo))).toMatchObject({
      status: 200,
      body: { enabled: false, ignore_broken_on_default_branch: false },
    });
    const ciKey = await app.createKey('ci');
    expect(
      (await app.request('PUT', autoQuarantinePath(repo), { token: ciKey, body: { enabled: true } })).status,
    ).toBe(403);
    const put = (body: unknown) => app.request('PUT', autoQuarantinePath(repo), { body });
    expect(await put({ enabled: true })).toMatchObject({
      status: 200,
      body: { enabled: true, ignore_broken_on_default_branch: false },
    });
    app.clock.set('2026-03-05T10:00:00.000Z');
    expect((await put({ enabled: true, ignore_broken_on_default_branch: true })).body).toEqual({
      enabled: true,
      ignore_broken_on_default_branch: true,
    });
    app.clock.set('2026-03-05T11:00:00.000Z');
    expect((await put({ enabled: false })).body.enabled).toBe(false);
    const maybe = await put({ enabled: 'maybe' });
    expect(maybe.status).toBe(422);
    expect(maybe.body).toEqual({
      detail: [
        {
          type: 'bool_parsing',
          loc: ['body', 'enabled'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: 'maybe',
        },
      ],
    });

    expect((await logOf(repo)).map((event) => [event.type, event.metadata])).toEqual([
      [
        'ci_insights.auto_quarantine.enabled',
        {
          enabled_by: admin,
          enabled_by_staff: false,
          enabled_at: '2026-03-05T09:00:00.000Z',
          auto_quarantine_config_attributes: { ignore_broken_on_default_branch: false },
        },
      ],
      [
        'ci_insights.auto_quarantine.modified',
        {
          updated_by: admin,
          updated_by_staff: false,
          updated_at: '2026-03-05T10:00:00.000Z',
          auto_quarantine_config_attributes_before: { ignore_broken_on_default_branch: false },
          auto_quarantine_config_attributes_after: { ignore_broken_on_default_branch: true },
        },
      ],
      [
        'ci_insights.auto_quarantine.disabled',
        {
          disabled_by: admin,
          disabled_by_staff: false,
          disabled_at: '2026-03-05T11:00:00.000Z',
          auto_quarantine_config_attributes: { ignore_broken_on_default_branch: true },
        },
      ],
    ]);
  });
});

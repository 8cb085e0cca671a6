import { startTestApp, type HttpResponse, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * Merge-queue pause and scheduled freezes over HTTP against the all-in-one app: every pause and
 * freeze row of the spec's "Moves that are shown", the error answers the CLI relies on
 * (client-contract E5–E10), the activity log after each step, and a rebuild from the events.
 * The file shares one app; each test sets the clock, takes a repository of its own, and makes
 * its given steps through the API, so it runs the same alone or in any order.
 */
describe('repository controls over HTTP (all-in-one app)', () => {
  let app: TestApp;
  let admin: { type: 'application'; id: string; name: string };

  beforeAll(async () => {
    app = await startTestApp();
    const application = await app.request<{ id: string; name: string }>('GET', '/v1/application');
    admin = { type: 'application', id: application.body.id, name: application.body.name };
    // Starting the all-in-one app takes over 40 s on the shared, loaded machine.
  }, 120_000);
  afterAll(() => app.close());

  // The activity log, oldest first, restricted to this slice's types.
  const CONTROL_TYPES = /^(queue\.pause\.|scheduled_freeze\.)/;
  const LOG_WINDOW = `received_from=${encodeURIComponent('2026-03-01T00:00:00Z')}&received_to=${encodeURIComponent('2026-04-30T00:00:00Z')}&per_page=100`;

  async function logOf(repository: string): Promise<unknown[]> {
    const response = await app.request<{ events: Array<{ type: string }> }>(
      'GET',
      `/v1/repos/${repository}/logs?${LOG_WINDOW}`,
    );
    expect(response.status).toBe(200);
    return response.body.events.filter((event) => CONTROL_TYPES.test(event.type)).reverse();
  }

  const logged = (
    repository: string,
    type: string,
    receivedAt: string,
    metadata: Record<string, unknown>,
  ) => ({
    id: expect.any(Number),
    received_at: receivedAt,
    trigger: 'api',
    repository,
    pull_request: null,
    base_ref: null,
    outcome: expect.any(String),
    type,
    metadata,
  });

  const expectNoBody = (response: HttpResponse) => {
    expect(response.text).toBe('');
  };

  describe('merge-queue pause', () => {
    const pausePath = (repo: string) => `/v1/repos/${repo}/merge-queue/pause`;
    const legacyPath = (repo: string) => `/v1/repos/${repo}/queue/pause`;

    const createdLog = (repo: string, reason: string, at: string) =>
      logged(repo, 'queue.pause.create', at, { reason, created_by: admin, created_by_staff: false });
    const updatedLog = (repo: string, reason: string, at: string) =>
      logged(repo, 'queue.pause.update', at, { reason, updated_by: admin, updated_by_staff: false });
    const deletedLog = (repo: string, at: string) =>
      logged(repo, 'queue.pause.delete', at, { deleted_by: admin, deleted_by_staff: false });

    /** Given: the queue of `repo` paused by the admin key at `at`; answers what that logged. */
    async function givenPaused(repo: string, reason: string, at: string) {
      app.clock.set(at);
      const response = await app.request('PUT', pausePath(repo), { body: { reason } });
      expect(response.status).toBe(200);
      return createdLog(repo, reason, at);
    }

    it('GET answers not paused, in both the current and the legacy shape', async () => {
      const repo = uniqueRepository('never-paused');
      app.clock.set('2026-03-02T10:00:00.000Z');
      expect(await app.request('GET', pausePath(repo))).toMatchObject({
        status: 200,
        body: { paused: false, reason: null, paused_at: null },
      });
      expect(await app.request('GET', legacyPath(repo))).toMatchObject({
        status: 200,
        body: { queue_pause: [] },
      });
      expect(await logOf(repo)).toEqual([]);
    });

    it('DELETE on a queue that is not paused answers 404 with the detail the CLI recognises (E6)', async () => {
      const repo = uniqueRepository('never-paused');
      app.clock.set('2026-03-02T10:00:00.000Z');
      for (const [method, path] of [
        ['DELETE', pausePath(repo)],
        ['DELETE', legacyPath(repo)],
        ['POST', `${legacyPath(repo)}/delete`],
      ] as const) {
        const response = await app.request(method, path);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ detail: 'The merge queue is not paused' });
      }
      expect(await logOf(repo)).toEqual([]);
    });

    it('not paused → PUT with a reason → paused, logged as queue.pause.create (E5)', async () => {
      const repo = uniqueRepository('widgets');
      app.clock.set('2026-03-02T10:00:00.000Z');
      const response = await app.request('PUT', pausePath(repo), { body: { reason: 'deploy freeze' } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        paused: true,
        reason: 'deploy freeze',
        paused_at: '2026-03-02T10:00:00.000Z',
      });
      expect(await app.request('GET', pausePath(repo))).toMatchObject({ body: response.body });
      expect((await app.request('GET', legacyPath(repo))).body).toEqual({
        queue_pause: [{ reason: 'deploy freeze', pause_date: '2026-03-02T10:00:00.000Z' }],
      });
      expect(await logOf(repo)).toEqual([createdLog(repo, 'deploy freeze', '2026-03-02T10:00:00.000Z')]);
    });

    it('paused → legacy PUT → reason updated, paused_at kept, logged as queue.pause.update', async () => {
      const repo = uniqueRepository('widgets');
      const created = await givenPaused(repo, 'deploy freeze', '2026-03-02T10:00:00.000Z');

      app.clock.set('2026-03-02T10:05:00.000Z');
      const response = await app.request('PUT', legacyPath(repo), {
        body: { reason: 'still investigating' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        queue_pause: [{ reason: 'still investigating', pause_date: '2026-03-02T10:00:00.000Z' }],
      });
      expect((await app.request('GET', pausePath(repo))).body).toEqual({
        paused: true,
        reason: 'still investigating',
        paused_at: '2026-03-02T10:00:00.000Z',
      });
      expect(await logOf(repo)).toEqual([
        created,
        updatedLog(repo, 'still investigating', '2026-03-02T10:05:00.000Z'),
      ]);
    });

    it('names the actor behind a service token, and treats the repository case-insensitively', async () => {
      const repo = uniqueRepository('widgets');
      const created = await givenPaused(repo, 'deploy freeze', '2026-03-02T10:00:00.000Z');

      app.clock.set('2026-03-02T10:06:00.000Z');
      const token = await app.issueServiceToken();
      const response = await app.request('PUT', pausePath(repo.toUpperCase()), {
        token,
        body: { reason: 'handover' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ reason: 'handover', paused_at: '2026-03-02T10:00:00.000Z' });
      const [, update] = (await logOf(repo)) as Array<{ metadata: { updated_by: unknown } }>;
      expect(update!.metadata.updated_by).toEqual({
        type: 'application',
        id: expect.any(String),
        name: expect.any(String),
      });
      expect(update!.metadata.updated_by).not.toEqual(admin);
      expect(await logOf(repo)).toEqual([
        created,
        logged(repo, 'queue.pause.update', '2026-03-02T10:06:00.000Z', {
          reason: 'handover',
          updated_by: update!.metadata.updated_by,
          updated_by_staff: false,
        }),
      ]);
    });

    it('refuses a missing or too long reason with 422 in FastAPI form, and counts code points', async () => {
      const repo = uniqueRepository('widgets');
      const created = await givenPaused(repo, 'deploy freeze', '2026-03-02T10:00:00.000Z');

      const missing = await app.request('PUT', pausePath(repo), { body: {} });
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual({
        detail: [{ type: 'missing', loc: ['body', 'reason'], msg: 'Field required', input: {} }],
      });
      const tooLong = await app.request('PUT', legacyPath(repo), { body: { reason: 'x'.repeat(256) } });
      expect(tooLong.status).toBe(422);
      expect(tooLong.body).toMatchObject({ detail: [{ type: 'string_too_long', loc: ['body', 'reason'] }] });
      expect(await logOf(repo)).toEqual([created]);

      app.clock.set('2026-03-02T10:07:00.000Z');
      const emoji = '🚦'.repeat(255);
      const accepted = await app.request('PUT', pausePath(repo), { body: { reason: emoji } });
      expect(accepted).toMatchObject({ status: 200, body: { reason: emoji } });
      expect(await logOf(repo)).toEqual([created, updatedLog(repo, emoji, '2026-03-02T10:07:00.000Z')]);
    });

    it('refuses a CI key with 403 and no retry headers', async () => {
      const repo = uniqueRepository('widgets');
      const created = await givenPaused(repo, 'deploy freeze', '2026-03-02T10:00:00.000Z');

      const ciKey = await app.createKey('ci');
      for (const [method, path, body] of [
        ['PUT', pausePath(repo), { reason: 'x' }],
        ['DELETE', pausePath(repo), undefined],
        ['GET', pausePath(repo), undefined],
        ['PUT', legacyPath(repo), { reason: 'x' }],
        ['POST', `${legacyPath(repo)}/delete`, undefined],
      ] as const) {
        const response = await app.request(method, path, { token: ciKey, body });
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ detail: 'This endpoint does not accept CI application keys' });
        expect(response.headers.get('retry-after')).toBeNull();
      }
      expect(await logOf(repo)).toEqual([created]);
    });

    it('paused → DELETE → not paused, 204 without body, logged as queue.pause.delete', async () => {
      const repo = uniqueRepository('widgets');
      const created = await givenPaused(repo, 'deploy freeze', '2026-03-02T10:00:00.000Z');

      app.clock.set('2026-03-02T11:00:00.000Z');
      const response = await app.request('DELETE', pausePath(repo));
      expect(response.status).toBe(204);
      expectNoBody(response);
      expect((await app.request('GET', pausePath(repo))).body).toEqual({
        paused: false,
        reason: null,
        paused_at: null,
      });
      expect((await app.request('GET', legacyPath(repo))).body).toEqual({ queue_pause: [] });
      expect(await logOf(repo)).toEqual([created, deletedLog(repo, '2026-03-02T11:00:00.000Z')]);
    });

    it('legacy PUT then POST queue/pause/delete share the same state; a new pause has a new paused_at', async () => {
      const repo = uniqueRepository('widgets');
      app.clock.set('2026-03-02T12:00:00.000Z');
      expect((await app.request('PUT', legacyPath(repo), { body: { reason: 'release' } })).status).toBe(200);
      expect((await app.request('GET', pausePath(repo))).body).toEqual({
        paused: true,
        reason: 'release',
        paused_at: '2026-03-02T12:00:00.000Z',
      });
      app.clock.set('2026-03-02T12:30:00.000Z');
      const removed = await app.request('POST', `${legacyPath(repo)}/delete`);
      expect(removed.status).toBe(204);
      expectNoBody(removed);
      expect((await app.request('GET', pausePath(repo))).body).toMatchObject({ paused: false });
      const firstPause = [
        createdLog(repo, 'release', '2026-03-02T12:00:00.000Z'),
        deletedLog(repo, '2026-03-02T12:30:00.000Z'),
      ];
      expect(await logOf(repo)).toEqual(firstPause);

      app.clock.set('2026-03-02T12:40:00.000Z');
      expect((await app.request('PUT', pausePath(repo), { body: { reason: 'again' } })).body).toMatchObject({
        paused_at: '2026-03-02T12:40:00.000Z',
      });
      app.clock.set('2026-03-02T12:45:00.000Z');
      expect((await app.request('DELETE', legacyPath(repo))).status).toBe(204);
      expect(await logOf(repo)).toEqual([
        ...firstPause,
        createdLog(repo, 'again', '2026-03-02T12:40:00.000Z'),
        deletedLog(repo, '2026-03-02T12:45:00.000Z'),
      ]);
    });

    it('two concurrent PUTs both succeed, end in one state, and log create then update', async () => {
      const raced = uniqueRepository('raced');
      app.clock.set('2026-03-02T13:00:00.000Z');
      const [first, second] = await Promise.all([
        app.request('PUT', pausePath(raced), { body: { reason: 'first' } }),
        app.request('PUT', pausePath(raced), { body: { reason: 'second' } }),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const state = await app.request<{ reason: string }>('GET', pausePath(raced));
      expect(state.body).toMatchObject({ paused: true, paused_at: '2026-03-02T13:00:00.000Z' });
      const log = (await logOf(raced)) as Array<{ type: string; metadata: { reason: string } }>;
      expect(log.map((event) => event.type)).toEqual(['queue.pause.create', 'queue.pause.update']);
      // The update is the one that landed last, so it names the final reason.
      expect(log[1]!.metadata.reason).toBe(state.body.reason);
      expect(new Set(log.map((event) => event.metadata.reason))).toEqual(new Set(['first', 'second']));
    });
  });

  describe('scheduled freezes', () => {
    const freezesPath = (repo: string) => `/v1/repos/${repo}/scheduled_freeze`;
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const START_PASSED =
      'The scheduled freeze `start` attribute cannot be updated, because the scheduled freeze has already started';

    type Freeze = {
      id: string;
      reason: string;
      start: string;
      end: string | null;
      timezone: string;
      matching_conditions: unknown[];
      exclude_conditions: unknown[];
    };
    const attributesOf = ({ id: _, ...attributes }: Freeze) => attributes;
    const list = async (repo: string) => {
      const response = await app.request<{ scheduled_freezes: Freeze[] }>('GET', freezesPath(repo));
      expect(response.status).toBe(200);
      return response.body.scheduled_freezes;
    };

    /** A freeze in Paris that has not begun on 2026-03-03 and begins on 2026-03-05. */
    const RELEASE = {
      reason: 'release 4.2',
      start: '2026-03-05T09:00:00',
      end: '2026-03-05T18:00:00',
      timezone: 'Europe/Paris',
      matching_conditions: ['base=main'],
      exclude_conditions: ['label=hotfix'],
    };
    /** A freeze that begins when it is created and has no end. */
    const EMERGENCY = { reason: 'no-conditions', start: null, end: null, timezone: 'America/New_York' };

    const createdLog = (repo: string, freeze: Freeze, at: string) =>
      logged(repo, 'scheduled_freeze.create', at, {
        scheduled_freeze_attributes: attributesOf(freeze),
        created_by: admin,
        created_by_staff: false,
        created_at: at,
      });
    const updatedLog = (repo: string, before: Freeze, after: Freeze, at: string) =>
      logged(repo, 'scheduled_freeze.update', at, {
        scheduled_freeze_attributes_before: attributesOf(before),
        scheduled_freeze_attributes_after: attributesOf(after),
        updated_by: admin,
        updated_by_staff: false,
        updated_at: at,
      });
    const deletedLog = (repo: string, freeze: Freeze, reason: string, at: string) =>
      logged(repo, 'scheduled_freeze.delete', at, {
        scheduled_freeze_attributes: attributesOf(freeze),
        reason,
        deleted_by: admin,
        deleted_by_staff: false,
        deleted_at: at,
      });

    /** Given: a freeze of `repo` created by the admin key at `at`; answers it and what it logged. */
    async function givenFreeze(repo: string, body: object, at: string) {
      app.clock.set(at);
      const response = await app.request<Freeze>('POST', freezesPath(repo), { body });
      expect(response.status).toBe(201);
      return { freeze: response.body, log: createdLog(repo, response.body, at) };
    }

    /** Given: RELEASE with its start moved to 2026-03-04T09:15:30Z, and the clock past it. */
    async function givenReleaseInForce(repo: string, now: string) {
      const given = await givenFreeze(
        repo,
        { ...RELEASE, start: '2026-03-04T10:15:30' },
        '2026-03-03T08:00:00.000Z',
      );
      app.clock.set(now);
      return given;
    }

    it('creates a scheduled freeze, echoing the body, logged as scheduled_freeze.create (E8)', async () => {
      const repo = uniqueRepository('freezes');
      app.clock.set('2026-03-03T08:00:00.000Z');
      const response = await app.request<Freeze>('POST', freezesPath(repo), { body: RELEASE });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ id: expect.stringMatching(UUID), ...RELEASE });
      expect(await logOf(repo)).toEqual([
        logged(repo, 'scheduled_freeze.create', '2026-03-03T08:00:00.000Z', {
          scheduled_freeze_attributes: RELEASE,
          created_by: admin,
          created_by_staff: false,
          created_at: '2026-03-03T08:00:00.000Z',
        }),
      ]);
    });

    it('start null begins now (naive, in the freeze zone) and end null is indefinite; absent conditions are []', async () => {
      const repo = uniqueRepository('freezes');
      app.clock.set('2026-03-03T08:30:15.750Z');
      const response = await app.request<Freeze>('POST', freezesPath(repo), { body: EMERGENCY });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(UUID),
        reason: 'no-conditions',
        start: '2026-03-03T03:30:15',
        end: null,
        timezone: 'America/New_York',
        matching_conditions: [],
        exclude_conditions: [],
      });
      expect(await logOf(repo)).toEqual([createdLog(repo, response.body, '2026-03-03T08:30:15.750Z')]);
    });

    it('lists ongoing and scheduled freezes in start order (E7)', async () => {
      const repo = uniqueRepository('freezes');
      const release = await givenFreeze(repo, RELEASE, '2026-03-03T08:00:00.000Z');
      const emergency = await givenFreeze(repo, EMERGENCY, '2026-03-03T08:30:15.750Z');
      expect(await list(repo)).toEqual([emergency.freeze, release.freeze]);
    });

    it('echoes condition objects exactly as received', async () => {
      const repo = uniqueRepository('freezes');
      app.clock.set('2026-03-03T08:40:00.000Z');
      const matching = [{ or: ['base=main', { and: ['base=next', { not: 'draft' }] }] }, 'label!=skip'];
      const response = await app.request<Freeze>('POST', freezesPath(repo), {
        body: {
          reason: 'objects',
          start: '2026-03-20T00:00:00',
          end: null,
          timezone: 'UTC',
          matching_conditions: matching,
        },
      });
      expect(response.status).toBe(201);
      expect(response.body.matching_conditions).toEqual(matching);
      const listed = (await list(repo)).find((freeze) => freeze.id === response.body.id)!;
      expect(JSON.stringify(listed)).toBe(JSON.stringify(response.body));
      // Deleted before it begins, without a reason (real clients send {}).
      app.clock.set('2026-03-03T08:41:00.000Z');
      const removed = await app.request('POST', `${freezesPath(repo)}/${response.body.id}/delete`, {
        body: {},
      });
      expect(removed.status).toBe(204);
      expectNoBody(removed);
      expect(await logOf(repo)).toEqual([
        createdLog(repo, response.body, '2026-03-03T08:40:00.000Z'),
        deletedLog(repo, response.body, '', '2026-03-03T08:41:00.000Z'),
      ]);
    });

    it.each([
      ['an unknown timezone', { timezone: 'Mars/Olympus_Mons' }, ['body', 'timezone'], 'value_error'],
      ['a start with Z', { start: '2026-03-05T09:00:00Z' }, ['body', 'start'], 'timezone_naive'],
      ['an end with an offset', { end: '2026-03-05T18:00:00+01:00' }, ['body', 'end'], 'timezone_naive'],
      ['a missing start', { start: undefined }, ['body', 'start'], 'missing'],
      [
        'a reason over 10000 characters',
        { reason: 'x'.repeat(10001) },
        ['body', 'reason'],
        'string_too_long',
      ],
      [
        'an empty condition',
        { matching_conditions: ['base=main', ''] },
        ['body', 'matching_conditions', 1],
        'value_error',
      ],
      [
        'a malformed condition group',
        { exclude_conditions: [{ xor: ['a'] }] },
        ['body', 'exclude_conditions', 0],
        'value_error',
      ],
      [
        'a condition the language refuses',
        { matching_conditions: ['base=main', { or: ['label=hotfix', 'lable=urgent'] }] },
        ['body', 'matching_conditions', 1],
        'value_error',
      ],
    ])('refuses a freeze with %s: 422 in FastAPI form', async (_, change, loc, type) => {
      const repo = uniqueRepository('refused');
      app.clock.set('2026-03-03T08:00:00.000Z');
      const body = { reason: 'bad', start: '2026-03-05T09:00:00', end: null, timezone: 'UTC', ...change };
      const response = await app.request<{ detail: Array<{ loc: unknown; type: string }> }>(
        'POST',
        freezesPath(repo),
        { body },
      );
      expect(response.status).toBe(422);
      expect(response.body.detail.map((issue) => [issue.loc, issue.type])).toEqual([[loc, type]]);
      expect(await logOf(repo)).toEqual([]);
    });

    it('refuses an end that is not after the start with 422 {"detail": "..."}', async () => {
      const repo = uniqueRepository('refused');
      app.clock.set('2026-03-03T08:00:00.000Z');
      for (const body of [
        { reason: 'r', start: '2026-03-05T09:00:00', end: '2026-03-05T09:00:00', timezone: 'UTC' },
        { reason: 'r', start: null, end: '2026-03-01T00:00:00', timezone: 'UTC' },
      ]) {
        const response = await app.request('POST', freezesPath(repo), { body });
        expect(response.status).toBe(422);
        expect(response.body).toEqual({ detail: 'The scheduled freeze `end` must be after its `start`' });
      }
      expect(await logOf(repo)).toEqual([]);
    });

    it('PATCH refuses conditions the condition language refuses: 422 at their position, freeze unchanged', async () => {
      const repo = uniqueRepository('freezes');
      const release = await givenFreeze(repo, RELEASE, '2026-03-03T08:00:00.000Z');

      app.clock.set('2026-03-04T08:00:00.000Z');
      const response = await app.request<{ detail: Array<{ loc: unknown; msg: string; input: unknown }> }>(
        'PATCH',
        `${freezesPath(repo)}/${release.freeze.id}`,
        {
          body: {
            exclude_conditions: [
              'label=hotfix',
              'created-at=2026-01-01',
              { not: { and: ['draft', 'base'] } },
            ],
          },
        },
      );
      expect(response.status).toBe(422);
      expect(response.body.detail.map(({ loc, msg, input }) => ({ loc, msg, input }))).toEqual([
        {
          loc: ['body', 'exclude_conditions', 1],
          msg: "Value error, Invalid condition 'created-at=2026-01-01'. Operator `=` is not allowed with attribute `created-at`; use one of `>=`, `<=`, `<`, `>`",
          input: 'created-at=2026-01-01',
        },
        {
          loc: ['body', 'exclude_conditions', 2],
          msg: "Value error, not.and[1]: Invalid condition 'base'. Missing operator and value for attribute `base`",
          input: { not: { and: ['draft', 'base'] } },
        },
      ]);
      expect(await list(repo)).toEqual([release.freeze]);
      expect(await logOf(repo)).toEqual([release.log]);
    });

    it('PATCH changes only the fields sent, logged with before and after (E9)', async () => {
      const repo = uniqueRepository('freezes');
      const release = await givenFreeze(repo, RELEASE, '2026-03-03T08:00:00.000Z');

      app.clock.set('2026-03-04T08:00:00.000Z');
      const response = await app.request<Freeze>('PATCH', `${freezesPath(repo)}/${release.freeze.id}`, {
        body: { reason: 'release 4.3' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...release.freeze, reason: 'release 4.3' });
      expect(await logOf(repo)).toEqual([
        release.log,
        updatedLog(repo, release.freeze, response.body, '2026-03-04T08:00:00.000Z'),
      ]);
    });

    it('freeze not begun → PATCH start → start changed (200)', async () => {
      const repo = uniqueRepository('freezes');
      const release = await givenFreeze(repo, RELEASE, '2026-03-03T08:00:00.000Z');

      app.clock.set('2026-03-04T08:10:00.000Z');
      const response = await app.request<Freeze>('PATCH', `${freezesPath(repo)}/${release.freeze.id}`, {
        body: { start: '2026-03-05T10:00:00' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...release.freeze, start: '2026-03-05T10:00:00' });
      expect(await logOf(repo)).toEqual([
        release.log,
        updatedLog(repo, release.freeze, response.body, '2026-03-04T08:10:00.000Z'),
      ]);
    });

    it('freeze not begun → PATCH start null → starts now (200)', async () => {
      const repo = uniqueRepository('freezes');
      const release = await givenFreeze(repo, RELEASE, '2026-03-03T08:00:00.000Z');
      const emergency = await givenFreeze(repo, EMERGENCY, '2026-03-03T08:30:15.750Z');

      app.clock.set('2026-03-04T09:15:30.000Z');
      const response = await app.request<Freeze>('PATCH', `${freezesPath(repo)}/${release.freeze.id}`, {
        body: { start: null },
      });
      expect(response.status).toBe(200);
      // Paris is UTC+1 in early March.
      expect(response.body).toEqual({ ...release.freeze, start: '2026-03-04T10:15:30' });
      expect((await list(repo)).map((freeze) => freeze.id)).toEqual([emergency.freeze.id, release.freeze.id]);
      expect(await logOf(repo)).toEqual([
        release.log,
        emergency.log,
        updatedLog(repo, release.freeze, response.body, '2026-03-04T09:15:30.000Z'),
      ]);
    });

    it('freeze begun → PATCH start (a new one, null, or a moving timezone) → unchanged, 400 (E9)', async () => {
      const repo = uniqueRepository('freezes');
      const release = await givenReleaseInForce(repo, '2026-03-04T09:20:00.000Z');

      for (const body of [{ start: '2026-03-06T00:00:00' }, { start: null }, { timezone: 'UTC' }]) {
        const response = await app.request('PATCH', `${freezesPath(repo)}/${release.freeze.id}`, { body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ detail: START_PASSED });
      }
      expect(await list(repo)).toEqual([release.freeze]);
      expect(await logOf(repo)).toEqual([release.log]);
    });

    it('freeze begun → PATCH end null → indefinite (200)', async () => {
      const repo = uniqueRepository('freezes');
      const release = await givenReleaseInForce(repo, '2026-03-04T09:25:00.000Z');

      const response = await app.request<Freeze>('PATCH', `${freezesPath(repo)}/${release.freeze.id}`, {
        body: { end: null },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...release.freeze, end: null });
      expect(await logOf(repo)).toEqual([
        release.log,
        updatedLog(repo, release.freeze, response.body, '2026-03-04T09:25:00.000Z'),
      ]);
    });

    it('refuses {} on a freeze in force with the FastAPI missing-field 422 (E10)', async () => {
      const repo = uniqueRepository('freezes');
      const release = await givenReleaseInForce(repo, '2026-03-04T09:30:00.000Z');

      for (const [method, path] of [
        ['POST', `${freezesPath(repo)}/${release.freeze.id}/delete`],
        ['DELETE', `${freezesPath(repo)}/${release.freeze.id}`],
      ] as const) {
        const response = await app.request(method, path, { body: {} });
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          detail: [{ type: 'missing', loc: ['body', 'delete_reason'], msg: 'Field required', input: {} }],
        });
      }
      expect(await list(repo)).toEqual([release.freeze]);
      expect(await logOf(repo)).toEqual([release.log]);
    });

    it('freeze exists → POST …/delete with delete_reason → deleted (204), logged with the reason (E10)', async () => {
      const repo = uniqueRepository('freezes');
      const release = await givenReleaseInForce(repo, '2026-03-04T09:35:00.000Z');
      const emergency = await givenFreeze(repo, EMERGENCY, '2026-03-03T08:30:15.750Z');
      app.clock.set('2026-03-04T09:35:00.000Z');

      const response = await app.request('POST', `${freezesPath(repo)}/${release.freeze.id}/delete`, {
        body: { delete_reason: 'audit-trail' },
      });
      expect(response.status).toBe(204);
      expectNoBody(response);
      expect((await list(repo)).map((freeze) => freeze.id)).toEqual([emergency.freeze.id]);
      expect(await logOf(repo)).toEqual([
        release.log,
        emergency.log,
        deletedLog(repo, release.freeze, 'audit-trail', '2026-03-04T09:35:00.000Z'),
      ]);
    });

    it('answers 404 for a deleted or unknown id, and 422 for an id that is not a UUID', async () => {
      const repo = uniqueRepository('freezes');
      const emergency = await givenFreeze(repo, EMERGENCY, '2026-03-03T08:30:15.750Z');
      const deleted = await givenFreeze(repo, RELEASE, '2026-03-03T08:40:00.000Z');
      app.clock.set('2026-03-03T08:41:00.000Z');
      const removed = await app.request('POST', `${freezesPath(repo)}/${deleted.freeze.id}/delete`, {
        body: { delete_reason: 'gone' },
      });
      expect(removed.status).toBe(204);
      const given = [
        emergency.log,
        deleted.log,
        deletedLog(repo, deleted.freeze, 'gone', '2026-03-03T08:41:00.000Z'),
      ];

      const unknown = '12345678-1234-4234-8234-123456789abc';
      for (const id of [deleted.freeze.id, unknown]) {
        for (const [method, path, body] of [
          ['PATCH', `${freezesPath(repo)}/${id}`, { reason: 'x' }],
          ['POST', `${freezesPath(repo)}/${id}/delete`, { delete_reason: 'x' }],
          ['DELETE', `${freezesPath(repo)}/${id}`, { delete_reason: 'x' }],
        ] as const) {
          const response = await app.request(method, path, { body });
          expect(response.status).toBe(404);
          expect(response.body).toEqual({ detail: 'The scheduled freeze with the given id does not exist' });
        }
      }
      const notUuid = await app.request('PATCH', `${freezesPath(repo)}/abc-123`, { body: { reason: 'x' } });
      expect(notUuid.status).toBe(422);
      expect(notUuid.body).toMatchObject({ detail: [{ type: 'uuid_parsing', loc: ['path', 'freeze_id'] }] });
      // A freeze of another repository does not exist here either.
      const elsewhere = await app.request(
        'PATCH',
        `${freezesPath(uniqueRepository('other'))}/${emergency.freeze.id}`,
        { body: { reason: 'x' } },
      );
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body).toEqual({ detail: 'The scheduled freeze with the given id does not exist' });
      expect(await list(repo)).toEqual([emergency.freeze]);
      expect(await logOf(repo)).toEqual(given);
    });

    it('freeze exists → deprecated DELETE with delete_reason → deleted (204)', async () => {
      const repo = uniqueRepository('freezes');
      const emergency = await givenFreeze(repo, EMERGENCY, '2026-03-03T08:30:15.750Z');

      app.clock.set('2026-03-04T09:40:00.000Z');
      const response = await app.request('DELETE', `${freezesPath(repo)}/${emergency.freeze.id}`, {
        body: { delete_reason: 'incident over' },
      });
      expect(response.status).toBe(204);
      expectNoBody(response);
      expect(await list(repo)).toEqual([]);
      expect(await logOf(repo)).toEqual([
        emergency.log,
        deletedLog(repo, emergency.freeze, 'incident over', '2026-03-04T09:40:00.000Z'),
      ]);
    });

    it('stops listing a freeze once it has ended', async () => {
      const repo = uniqueRepository('freezes');
      const short = await givenFreeze(
        repo,
        { reason: 'short', start: '2026-03-04T10:00:00', end: '2026-03-04T11:00:00', timezone: 'UTC' },
        '2026-03-04T10:00:00.000Z',
      );
      app.clock.set('2026-03-04T10:59:59.000Z');
      expect((await list(repo)).map((freeze) => freeze.id)).toEqual([short.freeze.id]);
      app.clock.set('2026-03-04T11:00:00.000Z');
      expect(await list(repo)).toEqual([]);
      expect(await logOf(repo)).toEqual([short.log]);
    });

    it('reads naive times in the freeze zone as luxon does, in a DST gap and a DST overlap', async () => {
      const dst = uniqueRepository('dst');

      // Paris skips 02:00-03:00 on 2026-03-29: luxon reads an end at 02:30 as 03:30 CEST = 01:30Z
      // (reading it at +02:00 would have ended the freeze at 00:30Z).
      app.clock.set('2026-03-28T12:00:00.000Z');
      const gap = await app.request<Freeze>('POST', freezesPath(dst), {
        body: {
          reason: 'gap',
          start: '2026-03-28T20:00:00',
          end: '2026-03-29T02:30:00',
          timezone: 'Europe/Paris',
        },
      });
      expect(gap.body).toMatchObject({ start: '2026-03-28T20:00:00', end: '2026-03-29T02:30:00' });
      app.clock.set('2026-03-29T00:45:00.000Z');
      expect((await list(dst)).map((freeze) => freeze.id)).toEqual([gap.body.id]);
      app.clock.set('2026-03-29T01:29:59.000Z');
      expect((await list(dst)).map((freeze) => freeze.id)).toEqual([gap.body.id]);
      app.clock.set('2026-03-29T01:30:00.000Z');
      expect(await list(dst)).toEqual([]);

      // Paris shows 02:30 twice on 2026-10-25; luxon reads a start at 02:30 as the second one,
      // 02:30 CET = 01:30Z, so at 00:45Z (the first 02:45, CEST) the freeze has not begun.
      app.clock.set('2026-10-24T12:00:00.000Z');
      const overlap = await app.request<Freeze>('POST', freezesPath(dst), {
        body: { reason: 'overlap', start: '2026-10-25T02:30:00', end: null, timezone: 'Europe/Paris' },
      });
      const path = `${freezesPath(dst)}/${overlap.body.id}`;
      app.clock.set('2026-10-25T00:45:00.000Z');
      const moved = await app.request('PATCH', path, { body: { start: '2026-10-25T02:31:00' } });
      expect(moved).toMatchObject({ status: 200, body: { start: '2026-10-25T02:31:00' } });
      app.clock.set('2026-10-25T01:31:00.000Z');
      const refused = await app.request('PATCH', path, { body: { start: '2026-10-25T02:32:00' } });
      expect(refused).toMatchObject({ status: 400, body: { detail: START_PASSED } });
    });

    it('refuses a CI key with 403 on every freeze operation', async () => {
      const repo = uniqueRepository('freezes');
      const release = await givenFreeze(repo, RELEASE, '2026-03-03T08:00:00.000Z');

      const ciKey = await app.createKey('ci');
      for (const id of [release.freeze.id, '12345678-1234-4234-8234-123456789abc']) {
        for (const [method, path, body] of [
          ['GET', freezesPath(repo), undefined],
          ['POST', freezesPath(repo), { reason: 'r', start: null, end: null, timezone: 'UTC' }],
          ['PATCH', `${freezesPath(repo)}/${id}`, { reason: 'r' }],
          ['POST', `${freezesPath(repo)}/${id}/delete`, { delete_reason: 'r' }],
          ['DELETE', `${freezesPath(repo)}/${id}`, { delete_reason: 'r' }],
        ] as const) {
          const response = await app.request(method, path, { token: ciKey, body });
          expect(response.status).toBe(403);
          expect(response.body).toEqual({ detail: 'This endpoint does not accept CI application keys' });
          expect(response.headers.get('retry-after')).toBeNull();
        }
      }
      expect(await list(repo)).toEqual([release.freeze]);
      expect(await logOf(repo)).toEqual([release.log]);
    });
  });

  it('rebuilding every projection from the events gives identical responses', async () => {
    // Given a history of every control event, in one repository, and live state left in another.
    const history = uniqueRepository('history');
    const rebuilt = uniqueRepository('rebuilt');
    const pause = `/v1/repos/${history}/merge-queue/pause`;
    const freezes = `/v1/repos/${history}/scheduled_freeze`;
    app.clock.set('2026-03-04T11:00:00.000Z');
    expect((await app.request('PUT', pause, { body: { reason: 'first' } })).status).toBe(200);
    expect(
      (await app.request('PUT', `/v1/repos/${history}/queue/pause`, { body: { reason: 'second' } })).status,
    ).toBe(200);
    expect((await app.request('DELETE', pause)).status).toBe(204);
    const changed = await app.request<{ id: string }>('POST', freezes, {
      body: { reason: 'changed', start: '2026-03-10T09:00:00', end: null, timezone: 'Europe/Paris' },
    });
    expect(changed.status).toBe(201);
    expect(
      (await app.request('PATCH', `${freezes}/${changed.body.id}`, { body: { end: '2026-03-11T09:00:00' } }))
        .status,
    ).toBe(200);
    expect((await app.request('POST', `${freezes}/${changed.body.id}/delete`, { body: {} })).status).toBe(
      204,
    );
    const ongoing = await app.request<{ id: string }>('POST', freezes, {
      body: { reason: 'ongoing', start: null, end: null, timezone: 'UTC' },
    });
    expect(
      (await app.request('DELETE', `${freezes}/${ongoing.body.id}`, { body: { delete_reason: 'over' } }))
        .status,
    ).toBe(204);

    app.clock.set('2026-03-04T12:00:00.000Z');
    await app.request('PUT', `/v1/repos/${rebuilt}/merge-queue/pause`, { body: { reason: 'kept' } });
    await app.request('POST', `/v1/repos/${rebuilt}/scheduled_freeze`, {
      body: {
        reason: 'kept',
        start: '2026-04-01T00:00:00',
        end: null,
        timezone: 'Asia/Kolkata',
        matching_conditions: [{ not: 'draft' }],
      },
    });
    const snapshot = async () => {
      const paths = [history, rebuilt].flatMap((repo) => [
        `/v1/repos/${repo}/merge-queue/pause`,
        `/v1/repos/${repo}/queue/pause`,
        `/v1/repos/${repo}/scheduled_freeze`,
        `/v1/repos/${repo}/logs?${LOG_WINDOW}`,
      ]);
      return Promise.all(paths.map(async (path) => [path, (await app.request('GET', path)).text]));
    };
    const before = await snapshot();
    expect(before.filter(([, text]) => text!.includes('kept'))).toHaveLength(4);
    expect(JSON.parse(before[3]![1]!).events).toHaveLength(8);

    await app.rebuild();
    expect(await snapshot()).toEqual(before);
  });
});

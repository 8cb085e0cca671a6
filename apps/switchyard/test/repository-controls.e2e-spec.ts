import { startTestApp, type HttpResponse, type TestApp } from './harness';

/**
 * Merge-queue pause and scheduled freezes over HTTP against the all-in-one app: every pause and
 * freeze row of the spec's "Moves that are shown", the error answers the CLI relies on
 * (client-contract E5–E10), the activity log after each step, and a rebuild from the events.
 * Tests in this file run in order and share one app; each section moves the app clock itself.
 */
describe('repository controls over HTTP (all-in-one app)', () => {
  let app: TestApp;
  let admin: { type: 'application'; id: string; name: string };

  beforeAll(async () => {
    app = await startTestApp();
    const application = await app.request<{ id: string; name: string }>('GET', '/v1/application');
    admin = { type: 'application', id: application.body.id, name: application.body.name };
  });
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
    const repo = 'acme/widgets';
    const pausePath = `/v1/repos/${repo}/merge-queue/pause`;
    const legacyPath = `/v1/repos/${repo}/queue/pause`;
    const expectedLog: unknown[] = [];
    const expectLog = async () => expect(await logOf(repo)).toEqual(expectedLog);

    beforeAll(() => app.clock.set('2026-03-02T10:00:00.000Z'));

    it('GET answers not paused, in both the current and the legacy shape', async () => {
      expect(await app.request('GET', pausePath)).toMatchObject({
        status: 200,
        body: { paused: false, reason: null, paused_at: null },
      });
      expect(await app.request('GET', legacyPath)).toMatchObject({ status: 200, body: { queue_pause: [] } });
      await expectLog();
    });

    it('DELETE on a queue that is not paused answers 404 with the detail the CLI recognises (E6)', async () => {
      for (const [method, path] of [
        ['DELETE', pausePath],
        ['DELETE', legacyPath],
        ['POST', `${legacyPath}/delete`],
      ] as const) {
        const response = await app.request(method, path);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ detail: 'The merge queue is not paused' });
      }
      await expectLog();
    });

    it('not paused → PUT with a reason → paused, logged as queue.pause.create (E5)', async () => {
      const response = await app.request('PUT', pausePath, { body: { reason: 'deploy freeze' } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        paused: true,
        reason: 'deploy freeze',
        paused_at: '2026-03-02T10:00:00.000Z',
      });
      expect(await app.request('GET', pausePath)).toMatchObject({ body: response.body });
      expect((await app.request('GET', legacyPath)).body).toEqual({
        queue_pause: [{ reason: 'deploy freeze', pause_date: '2026-03-02T10:00:00.000Z' }],
      });
      expectedLog.push(
        logged(repo, 'queue.pause.create', '2026-03-02T10:00:00.000Z', {
          reason: 'deploy freeze',
          created_by: admin,
          created_by_staff: false,
        }),
      );
      await expectLog();
    });

    it('paused → legacy PUT → reason updated, paused_at kept, logged as queue.pause.update', async () => {
      app.clock.set('2026-03-02T10:05:00.000Z');
      const response = await app.request('PUT', legacyPath, { body: { reason: 'still investigating' } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        queue_pause: [{ reason: 'still investigating', pause_date: '2026-03-02T10:00:00.000Z' }],
      });
      expect((await app.request('GET', pausePath)).body).toEqual({
        paused: true,
        reason: 'still investigating',
        paused_at: '2026-03-02T10:00:00.000Z',
      });
      expectedLog.push(
        logged(repo, 'queue.pause.update', '2026-03-02T10:05:00.000Z', {
          reason: 'still investigating',
          updated_by: admin,
          updated_by_staff: false,
        }),
      );
      await expectLog();
    });

    it('names the actor behind a service token, and treats the repository case-insensitively', async () => {
      app.clock.set('2026-03-02T10:06:00.000Z');
      const token = await app.issueServiceToken();
      const response = await app.request('PUT', '/v1/repos/Acme/Widgets/merge-queue/pause', {
        token,
        body: { reason: 'handover' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ reason: 'handover', paused_at: '2026-03-02T10:00:00.000Z' });
      const [, , update] = (await logOf(repo)) as Array<{ metadata: { updated_by: unknown } }>;
      expect(update!.metadata.updated_by).toEqual({
        type: 'application',
        id: expect.any(String),
        name: expect.any(String),
      });
      expect(update!.metadata.updated_by).not.toEqual(admin);
      expectedLog.push(
        logged(repo, 'queue.pause.update', '2026-03-02T10:06:00.000Z', {
          reason: 'handover',
          updated_by: update!.metadata.updated_by,
          updated_by_staff: false,
        }),
      );
      await expectLog();
    });

    it('refuses a missing or too long reason with 422 in FastAPI form, and counts code points', async () => {
      const missing = await app.request('PUT', pausePath, { body: {} });
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual({
        detail: [{ type: 'missing', loc: ['body', 'reason'], msg: 'Field required', input: {} }],
      });
      const tooLong = await app.request('PUT', legacyPath, { body: { reason: 'x'.repeat(256) } });
      expect(tooLong.status).toBe(422);
      expect(tooLong.body).toMatchObject({ detail: [{ type: 'string_too_long', loc: ['body', 'reason'] }] });
      await expectLog();

      app.clock.set('2026-03-02T10:07:00.000Z');
      const emoji = '🚦'.repeat(255);
      const accepted = await app.request('PUT', pausePath, { body: { reason: emoji } });
      expect(accepted).toMatchObject({ status: 200, body: { reason: emoji } });
      expectedLog.push(
        logged(repo, 'queue.pause.update', '2026-03-02T10:07:00.000Z', {
          reason: emoji,
          updated_by: admin,
          updated_by_staff: false,
        }),
      );
      await expectLog();
    });

    it('refuses a CI key with 403 and no retry headers', async () => {
      const ciKey = await app.createKey('ci');
      for (const [method, path, body] of [
        ['PUT', pausePath, { reason: 'x' }],
        ['DELETE', pausePath, undefined],
        ['GET', pausePath, undefined],
        ['PUT', legacyPath, { reason: 'x' }],
        ['POST', `${legacyPath}/delete`, undefined],
      ] as const) {
        const response = await app.request(method, path, { token: ciKey, body });
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ detail: expect.any(String) });
        expect(response.headers.get('retry-after')).toBeNull();
      }
      await expectLog();
    });

    it('paused → DELETE → not paused, 204 without body, logged as queue.pause.delete', async () => {
      app.clock.set('2026-03-02T11:00:00.000Z');
      const response = await app.request('DELETE', pausePath);
      expect(response.status).toBe(204);
      expectNoBody(response);
      expect((await app.request('GET', pausePath)).body).toEqual({
        paused: false,
        reason: null,
        paused_at: null,
      });
      expect((await app.request('GET', legacyPath)).body).toEqual({ queue_pause: [] });
      expectedLog.push(
        logged(repo, 'queue.pause.delete', '2026-03-02T11:00:00.000Z', {
          deleted_by: admin,
          deleted_by_staff: false,
        }),
      );
      await expectLog();
    });

    it('legacy PUT then POST queue/pause/delete share the same state; a new pause has a new paused_at', async () => {
      app.clock.set('2026-03-02T12:00:00.000Z');
      expect((await app.request('PUT', legacyPath, { body: { reason: 'release' } })).status).toBe(200);
      expect((await app.request('GET', pausePath)).body).toEqual({
        paused: true,
        reason: 'release',
        paused_at: '2026-03-02T12:00:00.000Z',
      });
      app.clock.set('2026-03-02T12:30:00.000Z');
      const removed = await app.request('POST', `${legacyPath}/delete`);
      expect(removed.status).toBe(204);
      expectNoBody(removed);
      expect((await app.request('GET', pausePath)).body).toMatchObject({ paused: false });
      expectedLog.push(
        logged(repo, 'queue.pause.create', '2026-03-02T12:00:00.000Z', {
          reason: 'release',
          created_by: admin,
          created_by_staff: false,
        }),
        logged(repo, 'queue.pause.delete', '2026-03-02T12:30:00.000Z', {
          deleted_by: admin,
          deleted_by_staff: false,
        }),
      );
      await expectLog();

      app.clock.set('2026-03-02T12:40:00.000Z');
      expect((await app.request('PUT', pausePath, { body: { reason: 'again' } })).body).toMatchObject({
        paused_at: '2026-03-02T12:40:00.000Z',
      });
      app.clock.set('2026-03-02T12:45:00.000Z');
      expect((await app.request('DELETE', legacyPath)).status).toBe(204);
      expectedLog.push(
        logged(repo, 'queue.pause.create', '2026-03-02T12:40:00.000Z', {
          reason: 'again',
          created_by: admin,
          created_by_staff: false,
        }),
        logged(repo, 'queue.pause.delete', '2026-03-02T12:45:00.000Z', {
          deleted_by: admin,
          deleted_by_staff: false,
        }),
      );
      await expectLog();
    });

    it('two concurrent PUTs both succeed, end in one state, and log create then update', async () => {
      const raced = 'acme/raced';
      app.clock.set('2026-03-02T13:00:00.000Z');
      const [first, second] = await Promise.all([
        app.request('PUT', `/v1/repos/${raced}/merge-queue/pause`, { body: { reason: 'first' } }),
        app.request('PUT', `/v1/repos/${raced}/merge-queue/pause`, { body: { reason: 'second' } }),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const state = await app.request<{ reason: string }>('GET', `/v1/repos/${raced}/merge-queue/pause`);
      expect(state.body).toMatchObject({ paused: true, paused_at: '2026-03-02T13:00:00.000Z' });
      const log = (await logOf(raced)) as Array<{ type: string; metadata: { reason: string } }>;
      expect(log.map((event) => event.type)).toEqual(['queue.pause.create', 'queue.pause.update']);
      // The update is the one that landed last, so it names the final reason.
      expect(log[1]!.metadata.reason).toBe(state.body.reason);
      expect(new Set(log.map((event) => event.metadata.reason))).toEqual(new Set(['first', 'second']));
    });
  });

  describe('scheduled freezes', () => {
    const repo = 'acme/freezes';
    const freezesPath = `/v1/repos/${repo}/scheduled_freeze`;
    const expectedLog: unknown[] = [];
    const expectLog = async () => expect(await logOf(repo)).toEqual(expectedLog);
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
    const list = async () => {
      const response = await app.request<{ scheduled_freezes: Freeze[] }>('GET', freezesPath);
      expect(response.status).toBe(200);
      return response.body.scheduled_freezes;
    };

    let release: Freeze;
    let emergency: Freeze;

    beforeAll(() => app.clock.set('2026-03-03T08:00:00.000Z'));

    it('creates a scheduled freeze, echoing the body, logged as scheduled_freeze.create (E8)', async () => {
      const body = {
        reason: 'release 4.2',
        start: '2026-03-05T09:00:00',
        end: '2026-03-05T18:00:00',
        timezone: 'Europe/Paris',
        matching_conditions: ['base=main'],
        exclude_conditions: ['label=hotfix'],
      };
      const response = await app.request<Freeze>('POST', freezesPath, { body });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ id: expect.stringMatching(UUID), ...body });
      release = response.body;
      expectedLog.push(
        logged(repo, 'scheduled_freeze.create', '2026-03-03T08:00:00.000Z', {
          scheduled_freeze_attributes: body,
          created_by: admin,
          created_by_staff: false,
          created_at: '2026-03-03T08:00:00.000Z',
        }),
      );
      await expectLog();
    });

    it('start null begins now (naive, in the freeze zone) and end null is indefinite; absent conditions are []', async () => {
      app.clock.set('2026-03-03T08:30:15.750Z');
      const response = await app.request<Freeze>('POST', freezesPath, {
        body: { reason: 'no-conditions', start: null, end: null, timezone: 'America/New_York' },
      });
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
      emergency = response.body;
      expectedLog.push(
        logged(repo, 'scheduled_freeze.create', '2026-03-03T08:30:15.750Z', {
          scheduled_freeze_attributes: attributesOf(emergency),
          created_by: admin,
          created_by_staff: false,
          created_at: '2026-03-03T08:30:15.750Z',
        }),
      );
      await expectLog();
    });

    it('lists ongoing and scheduled freezes in start order (E7)', async () => {
      expect(await list()).toEqual([emergency, release]);
    });

    it('echoes condition objects exactly as received', async () => {
      app.clock.set('2026-03-03T08:40:00.000Z');
      const matching = [{ or: ['base=main', { and: ['base=next', { not: 'draft' }] }] }, 'label!=skip'];
      const response = await app.request<Freeze>('POST', freezesPath, {
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
      const listed = (await list()).find((freeze) => freeze.id === response.body.id)!;
      expect(JSON.stringify(listed)).toBe(JSON.stringify(response.body));
      expectedLog.push(
        logged(repo, 'scheduled_freeze.create', '2026-03-03T08:40:00.000Z', {
          scheduled_freeze_attributes: attributesOf(response.body),
          created_by: admin,
          created_by_staff: false,
          created_at: '2026-03-03T08:40:00.000Z',
        }),
      );
      // Deleted before it begins, without a reason (real clients send {}).
      app.clock.set('2026-03-03T08:41:00.000Z');
      const removed = await app.request('POST', `${freezesPath}/${response.body.id}/delete`, { body: {} });
      expect(removed.status).toBe(204);
      expectNoBody(removed);
      expectedLog.push(
        logged(repo, 'scheduled_freeze.delete', '2026-03-03T08:41:00.000Z', {
          scheduled_freeze_attributes: attributesOf(response.body),
          reason: '',
          deleted_by: admin,
          deleted_by_staff: false,
          deleted_at: '2026-03-03T08:41:00.000Z',
        }),
      );
      await expectLog();
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
        ['body', 'matching_conditions'],
        'value_error',
      ],
      [
        'a malformed condition group',
        { exclude_conditions: [{ xor: ['a'] }] },
        ['body', 'exclude_conditions'],
        'value_error',
      ],
    ])('refuses a freeze with %s: 422 in FastAPI form', async (_, change, loc, type) => {
      const body = { reason: 'bad', start: '2026-03-05T09:00:00', end: null, timezone: 'UTC', ...change };
      const response = await app.request<{ detail: Array<{ loc: unknown; type: string }> }>(
        'POST',
        freezesPath,
        { body },
      );
      expect(response.status).toBe(422);
      expect(response.body.detail.map((issue) => [issue.loc, issue.type])).toEqual([[loc, type]]);
      await expectLog();
    });

    it('refuses an end that is not after the start with 422 {"detail": "..."}', async () => {
      for (const body of [
        { reason: 'r', start: '2026-03-05T09:00:00', end: '2026-03-05T09:00:00', timezone: 'UTC' },
        { reason: 'r', start: null, end: '2026-03-01T00:00:00', timezone: 'UTC' },
      ]) {
        const response = await app.request('POST', freezesPath, { body });
        expect(response.status).toBe(422);
        expect(response.body).toEqual({ detail: 'The scheduled freeze `end` must be after its `start`' });
      }
      await expectLog();
    });

    it('PATCH changes only the fields sent, logged with before and after (E9)', async () => {
      app.clock.set('2026-03-04T08:00:00.000Z');
      const response = await app.request<Freeze>('PATCH', `${freezesPath}/${release.id}`, {
        body: { reason: 'release 4.3' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...release, reason: 'release 4.3' });
      expectedLog.push(
        logged(repo, 'scheduled_freeze.update', '2026-03-04T08:00:00.000Z', {
          scheduled_freeze_attributes_before: attributesOf(release),
          scheduled_freeze_attributes_after: attributesOf(response.body),
          updated_by: admin,
          updated_by_staff: false,
          updated_at: '2026-03-04T08:00:00.000Z',
        }),
      );
      release = response.body;
      await expectLog();
    });

    it('freeze not begun → PATCH start → start changed (200)', async () => {
      app.clock.set('2026-03-04T08:10:00.000Z');
      const response = await app.request<Freeze>('PATCH', `${freezesPath}/${release.id}`, {
        body: { start: '2026-03-05T10:00:00' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...release, start: '2026-03-05T10:00:00' });
      expectedLog.push(
        logged(repo, 'scheduled_freeze.update', '2026-03-04T08:10:00.000Z', {
          scheduled_freeze_attributes_before: attributesOf(release),
          scheduled_freeze_attributes_after: attributesOf(response.body),
          updated_by: admin,
          updated_by_staff: false,
          updated_at: '2026-03-04T08:10:00.000Z',
        }),
      );
      release = response.body;
      await expectLog();
    });

    it('freeze not begun → PATCH start null → starts now (200)', async () => {
      app.clock.set('2026-03-04T09:15:30.000Z');
      const response = await app.request<Freeze>('PATCH', `${freezesPath}/${release.id}`, {
        body: { start: null },
      });
      expect(response.status).toBe(200);
      // Paris is UTC+1 in early March.
      expect(response.body).toEqual({ ...release, start: '2026-03-04T10:15:30' });
      expectedLog.push(
        logged(repo, 'scheduled_freeze.update', '2026-03-04T09:15:30.000Z', {
          scheduled_freeze_attributes_before: attributesOf(release),
          scheduled_freeze_attributes_after: attributesOf(response.body),
          updated_by: admin,
          updated_by_staff: false,
          updated_at: '2026-03-04T09:15:30.000Z',
        }),
      );
      release = response.body;
      expect((await list()).map((freeze) => freeze.id)).toEqual([emergency.id, release.id]);
      await expectLog();
    });

    it('freeze begun → PATCH start (a new one, null, or a moving timezone) → unchanged, 400 (E9)', async () => {
      app.clock.set('2026-03-04T09:20:00.000Z');
      for (const body of [{ start: '2026-03-06T00:00:00' }, { start: null }, { timezone: 'UTC' }]) {
        const response = await app.request('PATCH', `${freezesPath}/${release.id}`, { body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ detail: START_PASSED });
      }
      expect((await list()).find((freeze) => freeze.id === release.id)).toEqual(release);
      await expectLog();
    });

    it('freeze begun → PATCH end null → indefinite (200)', async () => {
      app.clock.set('2026-03-04T09:25:00.000Z');
      const response = await app.request<Freeze>('PATCH', `${freezesPath}/${release.id}`, {
        body: { end: null },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...release, end: null });
      expectedLog.push(
        logged(repo, 'scheduled_freeze.update', '2026-03-04T09:25:00.000Z', {
          scheduled_freeze_attributes_before: attributesOf(release),
          scheduled_freeze_attributes_after: attributesOf(response.body),
          updated_by: admin,
          updated_by_staff: false,
          updated_at: '2026-03-04T09:25:00.000Z',
        }),
      );
      release = response.body;
      await expectLog();
    });

    it('refuses {} on a freeze in force with the FastAPI missing-field 422 (E10)', async () => {
      app.clock.set('2026-03-04T09:30:00.000Z');
      for (const [method, path] of [
        ['POST', `${freezesPath}/${release.id}/delete`],
        ['DELETE', `${freezesPath}/${release.id}`],
      ] as const) {
        const response = await app.request(method, path, { body: {} });
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          detail: [{ type: 'missing', loc: ['body', 'delete_reason'], msg: 'Field required', input: {} }],
        });
      }
      await expectLog();
    });

    it('freeze exists → POST …/delete with delete_reason → deleted (204), logged with the reason (E10)', async () => {
      app.clock.set('2026-03-04T09:35:00.000Z');
      const response = await app.request('POST', `${freezesPath}/${release.id}/delete`, {
        body: { delete_reason: 'audit-trail' },
      });
      expect(response.status).toBe(204);
      expectNoBody(response);
      expect((await list()).map((freeze) => freeze.id)).toEqual([emergency.id]);
      expectedLog.push(
        logged(repo, 'scheduled_freeze.delete', '2026-03-04T09:35:00.000Z', {
          scheduled_freeze_attributes: attributesOf(release),
          reason: 'audit-trail',
          deleted_by: admin,
          deleted_by_staff: false,
          deleted_at: '2026-03-04T09:35:00.000Z',
        }),
      );
      await expectLog();
    });

    it('answers 404 for a deleted or unknown id, and 422 for an id that is not a UUID', async () => {
      const unknown = '12345678-1234-4234-8234-123456789abc';
      for (const id of [release.id, unknown]) {
        for (const [method, path, body] of [
          ['PATCH', `${freezesPath}/${id}`, { reason: 'x' }],
          ['POST', `${freezesPath}/${id}/delete`, { delete_reason: 'x' }],
          ['DELETE', `${freezesPath}/${id}`, { delete_reason: 'x' }],
        ] as const) {
          const response = await app.request(method, path, { body });
          expect(response.status).toBe(404);
          expect(response.body).toEqual({ detail: 'The scheduled freeze with the given id does not exist' });
        }
      }
      const notUuid = await app.request('PATCH', `${freezesPath}/abc-123`, { body: { reason: 'x' } });
      expect(notUuid.status).toBe(422);
      expect(notUuid.body).toMatchObject({ detail: [{ type: 'uuid_parsing', loc: ['path', 'freeze_id'] }] });
      // A freeze of another repository does not exist here either.
      const elsewhere = await app.request('PATCH', `/v1/repos/acme/other/scheduled_freeze/${emergency.id}`, {
        body: { reason: 'x' },
      });
      expect(elsewhere.status).toBe(404);
      await expectLog();
    });

    it('freeze exists → deprecated DELETE with delete_reason → deleted (204)', async () => {
      app.clock.set('2026-03-04T09:40:00.000Z');
      const response = await app.request('DELETE', `${freezesPath}/${emergency.id}`, {
        body: { delete_reason: 'incident over' },
      });
      expect(response.status).toBe(204);
      expectNoBody(response);
      expect(await list()).toEqual([]);
      expectedLog.push(
        logged(repo, 'scheduled_freeze.delete', '2026-03-04T09:40:00.000Z', {
          scheduled_freeze_attributes: attributesOf(emergency),
          reason: 'incident over',
          deleted_by: admin,
          deleted_by_staff: false,
          deleted_at: '2026-03-04T09:40:00.000Z',
        }),
      );
      await expectLog();
    });

    it('stops listing a freeze once it has ended', async () => {
      app.clock.set('2026-03-04T10:00:00.000Z');
      const created = await app.request<Freeze>('POST', freezesPath, {
        body: { reason: 'short', start: '2026-03-04T10:00:00', end: '2026-03-04T11:00:00', timezone: 'UTC' },
      });
      expect(created.status).toBe(201);
      expectedLog.push(
        logged(repo, 'scheduled_freeze.create', '2026-03-04T10:00:00.000Z', {
          scheduled_freeze_attributes: attributesOf(created.body),
          created_by: admin,
          created_by_staff: false,
          created_at: '2026-03-04T10:00:00.000Z',
        }),
      );
      app.clock.set('2026-03-04T10:59:59.000Z');
      expect((await list()).map((freeze) => freeze.id)).toEqual([created.body.id]);
      app.clock.set('2026-03-04T11:00:00.000Z');
      expect(await list()).toEqual([]);
      await expectLog();
    });

    it('reads naive times in the freeze zone as luxon does, in a DST gap and a DST overlap', async () => {
      const dst = 'acme/dst';
      const listDst = async () =>
        (await app.request<{ scheduled_freezes: Freeze[] }>('GET', `/v1/repos/${dst}/scheduled_freeze`)).body
          .scheduled_freezes;

      // Paris skips 02:00-03:00 on 2026-03-29: luxon reads an end at 02:30 as 03:30 CEST = 01:30Z
      // (reading it at +02:00 would have ended the freeze at 00:30Z).
      app.clock.set('2026-03-28T12:00:00.000Z');
      const gap = await app.request<Freeze>('POST', `/v1/repos/${dst}/scheduled_freeze`, {
        body: {
          reason: 'gap',
          start: '2026-03-28T20:00:00',
          end: '2026-03-29T02:30:00',
          timezone: 'Europe/Paris',
        },
      });
      expect(gap.body).toMatchObject({ start: '2026-03-28T20:00:00', end: '2026-03-29T02:30:00' });
      app.clock.set('2026-03-29T00:45:00.000Z');
      expect((await listDst()).map((freeze) => freeze.id)).toEqual([gap.body.id]);
      app.clock.set('2026-03-29T01:29:59.000Z');
      expect((await listDst()).map((freeze) => freeze.id)).toEqual([gap.body.id]);
      app.clock.set('2026-03-29T01:30:00.000Z');
      expect(await listDst()).toEqual([]);

      // Paris shows 02:30 twice on 2026-10-25; luxon reads a start at 02:30 as the second one,
      // 02:30 CET = 01:30Z, so at 00:45Z (the first 02:45, CEST) the freeze has not begun.
      app.clock.set('2026-10-24T12:00:00.000Z');
      const overlap = await app.request<Freeze>('POST', `/v1/repos/${dst}/scheduled_freeze`, {
        body: { reason: 'overlap', start: '2026-10-25T02:30:00', end: null, timezone: 'Europe/Paris' },
      });
      const path = `/v1/repos/${dst}/scheduled_freeze/${overlap.body.id}`;
      app.clock.set('2026-10-25T00:45:00.000Z');
      const moved = await app.request('PATCH', path, { body: { start: '2026-10-25T02:31:00' } });
      expect(moved).toMatchObject({ status: 200, body: { start: '2026-10-25T02:31:00' } });
      app.clock.set('2026-10-25T01:31:00.000Z');
      const refused = await app.request('PATCH', path, { body: { start: '2026-10-25T02:32:00' } });
      expect(refused).toMatchObject({ status: 400, body: { detail: START_PASSED } });
    });

    it('refuses a CI key with 403 on every freeze operation', async () => {
      const ciKey = await app.createKey('ci');
      const id = '12345678-1234-4234-8234-123456789abc';
      for (const [method, path, body] of [
        ['GET', freezesPath, undefined],
        ['POST', freezesPath, { reason: 'r', start: null, end: null, timezone: 'UTC' }],
        ['PATCH', `${freezesPath}/${id}`, { reason: 'r' }],
        ['POST', `${freezesPath}/${id}/delete`, { delete_reason: 'r' }],
        ['DELETE', `${freezesPath}/${id}`, { delete_reason: 'r' }],
      ] as const) {
        const response = await app.request(method, path, { token: ciKey, body });
        expect(response.status).toBe(403);
        expect(response.headers.get('retry-after')).toBeNull();
      }
      await expectLog();
    });
  });

  it('rebuilding every projection from the events gives identical responses', async () => {
    app.clock.set('2026-03-04T12:00:00.000Z');
    // Leave some live state behind: a paused queue and a scheduled freeze.
    await app.request('PUT', '/v1/repos/acme/rebuilt/merge-queue/pause', { body: { reason: 'kept' } });
    await app.request('POST', '/v1/repos/acme/rebuilt/scheduled_freeze', {
      body: {
        reason: 'kept',
        start: '2026-04-01T00:00:00',
        end: null,
        timezone: 'Asia/Kolkata',
        matching_conditions: [{ not: 'draft' }],
      },
    });
    const snapshot = async () => {
      const paths = ['widgets', 'raced', 'freezes', 'dst', 'rebuilt'].flatMap((name) => [
        `/v1/repos/acme/${name}/merge-queue/pause`,
        `/v1/repos/acme/${name}/queue/pause`,
        `/v1/repos/acme/${name}/scheduled_freeze`,
        `/v1/repos/acme/${name}/logs?${LOG_WINDOW}`,
      ]);
      return Promise.all(paths.map(async (path) => [path, (await app.request('GET', path)).text]));
    };
    const before = await snapshot();
    expect(before.filter(([, text]) => text!.includes('kept'))).toHaveLength(4);
    await app.rebuildAll();
    expect(await snapshot()).toEqual(before);
  });
});

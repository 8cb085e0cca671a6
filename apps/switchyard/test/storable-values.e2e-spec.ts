import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * Only what every store can hold is accepted (issue 14 §1): instants in years 1–9999 once the
 * freeze's zone is applied, strings without NUL or lone surrogates. Anything else answers a 422
 * that names the field, appends nothing, and leaves the read models serving later writes.
 */
describe('storable values over HTTP (all-in-one app)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  type Issue = { type: string; loc: Array<string | number>; msg: string };
  const head = () => app.running.storage.store.headPosition();

  /** Sends the request, expects a 422 whose single issue points at `loc`, and no event appended. */
  async function expectRefused(method: string, path: string, body: unknown, loc: Array<string | number>) {
    const before = await head();
    const response = await app.request<{ detail: Issue[] }>(method, path, { body });
    expect(response.status).toBe(422);
    expect(response.body.detail.map((issue) => issue.loc)).toEqual([loc]);
    expect(await head()).toBe(before);
    return response.body.detail[0]!;
  }

  const freezesOf = (repository: string) => `/v1/repos/${repository}/scheduled_freeze`;
  /** Given: the clock on 2026-03-03 and a repository of this test's own. */
  const givenRepository = (label: string) => {
    app.clock.set('2026-03-03T08:00:00.000Z');
    return uniqueRepository(label);
  };
  const freeze = (changes: Record<string, unknown> = {}) => ({
    reason: 'release',
    start: '2026-04-01T09:00:00',
    end: '2026-04-01T18:00:00',
    timezone: 'Europe/Paris',
    ...changes,
  });

  it('refuses the year-0000 freeze of the report, and the freezes after it are listed', async () => {
    const path = freezesOf(givenRepository('year-zero'));
    const issue = await expectRefused(
      'POST',
      path,
      freeze({ start: '0000-01-01T00:00:00', end: '2028-02-02T00:00:00' }),
      ['body', 'start'],
    );
    expect(issue.type).toBe('value_error');
    expect(issue.msg).toContain('0001-01-01T00:00:00.000Z');

    const later = await app.request('POST', path, { body: freeze() });
    expect(later.status).toBe(201);
    const listed = await app.request<{ scheduled_freezes: Array<{ id: string }> }>('GET', path);
    expect(listed.body.scheduled_freezes.map((f) => f.id)).toEqual([later.body.id]);
    expect((await app.request('GET', '/readyz', { token: null })).status).toBe(200);
  });

  it('applies the range after the zone: year 1 at midnight is storable in UTC, not in Paris', async () => {
    const path = freezesOf(givenRepository('range-edges'));
    await expectRefused('POST', path, freeze({ start: '0001-01-01T00:00:00' }), ['body', 'start']);
    const utc = await app.request('POST', path, {
      body: freeze({ start: '0001-01-01T00:00:00', end: '9999-12-31T23:59:59', timezone: 'UTC' }),
    });
    expect(utc.status).toBe(201);
    expect(utc.body).toMatchObject({ start: '0001-01-01T00:00:00', end: '9999-12-31T23:59:59' });
    await expectRefused(
      'POST',
      path,
      freeze({ start: null, end: '9999-12-31T23:59:59', timezone: 'America/New_York' }),
      ['body', 'end'],
    );

    // Moving the recorded times into another zone would push them out of range: the zone is named.
    await expectRefused('PATCH', `${path}/${utc.body.id}`, { timezone: 'Europe/Paris' }, [
      'body',
      'timezone',
    ]);
    await expectRefused('PATCH', `${path}/${utc.body.id}`, { end: '0000-06-01T00:00:00' }, ['body', 'end']);
  });

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a lone surrogate', 'a\ud800b'],
  ])('refuses %s in every stored string of pauses and freezes', async (_, bad) => {
    const repository = givenRepository('strings');
    const pausePath = `/v1/repos/${repository}/merge-queue/pause`;
    await expectRefused('PUT', pausePath, { reason: bad }, ['body', 'reason']);
    await expectRefused('PUT', `/v1/repos/${repository}/queue/pause`, { reason: bad }, ['body', 'reason']);

    const path = freezesOf(repository);
    await expectRefused('POST', path, freeze({ reason: bad }), ['body', 'reason']);
    // Conditions are refused at their position in the list.
    await expectRefused('POST', path, freeze({ matching_conditions: ['base=main', { not: bad }] }), [
      'body',
      'matching_conditions',
      1,
    ]);
    await expectRefused('POST', path, freeze({ exclude_conditions: [bad] }), [
      'body',
      'exclude_conditions',
      0,
    ]);

    const created = await app.request('POST', path, { body: freeze() });
    expect(created.status).toBe(201);
    await expectRefused('PATCH', `${path}/${created.body.id}`, { reason: bad }, ['body', 'reason']);
    await expectRefused('POST', `${path}/${created.body.id}/delete`, { delete_reason: bad }, [
      'body',
      'delete_reason',
    ]);
  });
});

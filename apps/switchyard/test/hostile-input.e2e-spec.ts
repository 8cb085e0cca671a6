import { startTestApp, type HttpResponse, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * The classes of hostile input that once answered 500 (issue 14 §2), each over real HTTP: bodies
 * nested 10,000 deep, NUL and lone surrogates in query values, instants outside years 1–9999,
 * forged cursors, URLs that do not percent-decode and request heads too large to parse. Each gets
 * a 4xx with a `detail`, and nothing is appended.
 */
describe('hostile input over HTTP (all-in-one app)', () => {
  let app: TestApp;
  /** The path of this test's own repository. */
  let repoPath: string;

  beforeAll(async () => {
    app = await startTestApp();
  }, 120_000);
  afterAll(() => app.close());
  beforeEach(() => {
    repoPath = `/v1/repos/${uniqueRepository('hostile')}`;
    app.clock.set('2026-03-02T10:00:00.000Z');
  });

  /** Given: a freeze of this test's repository that has not begun; answers its id. */
  async function givenFreeze(): Promise<string> {
    const created = await app.request<{ id: string }>('POST', `${repoPath}/scheduled_freeze`, {
      body: { reason: 'later', start: '2026-12-24T18:00:00', end: null, timezone: 'UTC' },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  /** A refusal's body: the FastAPI issue list, or a message. */
  type Refusal = { detail: Array<Record<string, unknown>> };

  /** Sends the request and checks that the event store did not move. */
  async function refused(
    method: string,
    path: string,
    options: Parameters<TestApp['request']>[2] = {},
  ): Promise<HttpResponse<Refusal>> {
    const before = await app.running.storage.store.headPosition();
    const response = await app.request<Refusal>(method, path, options);
    expect(await app.running.storage.store.headPosition()).toBe(before);
    return response;
  }

  const nested = (depth: number) => `${'['.repeat(depth)}"base=main"${']'.repeat(depth)}`;
  const NESTING_DETAIL = { detail: 'JSON body nests arrays and objects deeper than 64 levels' };

  describe('bodies nested 10,000 deep answer 400 before anything recursive sees them', () => {
    it.each([
      ['PUT', '/merge-queue/pause', `{"reason":${nested(10_000)}}`],
      ['PUT', '/queue/pause', `{"reason":${nested(10_000)}}`],
      [
        'POST',
        '/scheduled_freeze',
        `{"reason":"x","start":null,"timezone":"UTC","matching_conditions":${nested(10_000)}}`,
      ],
      [
        'POST',
        '/scheduled_freeze',
        `{"reason":"x","start":null,"timezone":"UTC","exclude_conditions":[${'{"not":'.repeat(10_000)}"a"${'}'.repeat(10_000)}]}`,
      ],
      ['PATCH', '/scheduled_freeze/{id}', `{"matching_conditions":${nested(10_000)}}`],
      ['POST', '/scheduled_freeze/{id}/delete', `{"delete_reason":${nested(10_000)}}`],
      ['DELETE', '/scheduled_freeze/{id}', nested(100_000)],
    ])('%s %s', async (method, path, rawBody) => {
      const target = path.includes('{id}') ? path.replace('{id}', await givenFreeze()) : path;
      const response = await refused(method, `${repoPath}${target}`, { rawBody });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(NESTING_DETAIL);
    });

    it('still accepts conditions nested as deep as the domain allows', async () => {
      const response = await app.request('PATCH', `${repoPath}/scheduled_freeze/${await givenFreeze()}`, {
        body: { matching_conditions: [{ and: [{ or: [{ not: 'label=a' }] }] }] },
      });
      expect(response.status).toBe(200);
    });
  });

  it.each([
    ['PUT', '/merge-queue/pause', '{"reason":"a","x":{"constructor":"y"}}'],
    [
      'POST',
      '/scheduled_freeze',
      '{"reason":"x","start":null,"timezone":"UTC","matching_conditions":{"":{"constructor":1}}}',
    ],
  ])('%s %s with a nested "constructor" key answers 400', async (method, path, rawBody) => {
    const response = await refused(method, `${repoPath}${path}`, { rawBody });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: 'JSON body uses the reserved key "constructor"' });
  });

  describe('query values no store can hold answer 422 naming the parameter', () => {
    it.each([
      ['logs', 'trigger=a%00b', 'trigger'],
      ['logs', 'not_trigger=ok&not_trigger=%00', 'not_trigger'],
      ['logs', 'base_ref=main%00', 'base_ref'],
      ['logs/aggregate', 'trigger=a%00b', 'trigger'],
      ['logs/aggregate', 'base_ref=%00', 'base_ref'],
      // Instants outside years 1–9999 UTC, the offset applied.
      ['logs', 'received_from=0000-01-01T00:00:00Z', 'received_from'],
      ['logs', 'received_to=0001-01-01T00:00:00%2B00:01', 'received_to'],
      ['logs/aggregate', 'received_from=9999-12-31T23:59:59-00:01', 'received_from'],
      ['logs/aggregate', 'received_to=0000-12-31T23:59:59Z', 'received_to'],
    ])('%s?%s', async (endpoint, query, field) => {
      const response = await refused('GET', `${repoPath}/${endpoint}?${query}`);
      expect(response.status).toBe(422);
      expect(response.body.detail[0]).toMatchObject({
        type: 'value_error',
        loc: expect.arrayContaining(['query', field]),
      });
    });

    it('keeps an escape that does not decode (a lone surrogate) as the literal text it is', async () => {
      const response = await app.request('GET', `${repoPath}/logs?trigger=%ED%A0%80`);
      expect(response.status).toBe(200);
      expect(response.body.events).toEqual([]);
    });

    it('keeps a window that ends early in year 1 inside the range', async () => {
      const response = await app.request(
        'GET',
        `${repoPath}/logs/aggregate?received_to=0001-01-01T06:00:00Z`,
      );
      expect(response.status).toBe(200);
      expect(response.body.total).toBe(0);
    });
  });

  it('answers a forged cursor carrying an out-of-range time with 422 "Invalid cursor"', async () => {
    const forge = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');
    const at = Date.parse('2026-03-02T09:00:00Z');
    for (const cursor of [
      { d: 'n', t: 8.64e15 + 1, i: 1, f: at, u: at },
      { d: 'n', t: -62198755200000, i: 1, f: at, u: at },
      { d: 'p', t: at, i: 1, f: Number.MIN_SAFE_INTEGER, u: at },
    ]) {
      const response = await refused('GET', `${repoPath}/logs?cursor=${forge(cursor)}`);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ detail: 'Invalid cursor' });
    }
  });

  describe('what the router and the HTTP parser refuse still answers {"detail"}', () => {
    it.each([
      '/v1/repos/acme%C0%AF/hostile/merge-queue/pause',
      '/v1/repos/acme/hostile%ED%A0%80/logs',
      '/%/%00',
    ])('a URL that does not percent-decode: %s', async (path) => {
      const response = await refused('PUT', path, { body: { reason: 'x' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ detail: 'The URL is not validly percent-encoded UTF-8' });
      expect(response.headers.get('x-request-id')).toBeTruthy();
    });

    it('a repository name past the limit is a 422 naming it, not a router refusal', async () => {
      const response = await refused('PUT', `/v1/repos/acme/${'r'.repeat(101)}/merge-queue/pause`, {
        body: { reason: 'x' },
      });
      expect(response.status).toBe(422);
      expect(response.body.detail[0]).toMatchObject({ type: 'string_too_long', loc: ['path', 'repository'] });
    });

    it('a request head too large to parse', async () => {
      const response = await refused('GET', `${repoPath}/logs?trigger=${'a'.repeat(20_000)}`);
      expect(response.status).toBe(431);
      expect(response.body).toEqual({ detail: 'The request line and headers are too large' });
    });
  });
});

import { request } from 'node:http';
import { createFreshPostgresDatabase, postgresAvailable } from './fresh-postgres-database';
import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/**
 * Issue 33 §4 and §6 at the sandbox forge: text no store can hold, names GitHub would not give and
 * times no store can hold are refused at its door (422, or 404 for a repository), and every write
 * does work bounded by GitHub's own limits, so one repository's largest request holds up no other
 * repository's reads. The same tests on each store the service runs on.
 */
function forgeAtItsLimits(storage: () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>) {
  jest.setTimeout(120_000);
  let app: TestApp;
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const store = await storage();
    drop = store.drop;
    app = await startTestApp({ ...store.env, SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await drop();
  });

  /** A call to the forge as the admin key; GitHub's shapes are read field by field. */
  const forge = (method: string, path: string, body?: unknown) =>
    app.request(method, `/sandbox/github${path}`, body === undefined ? {} : { body });

  /** The body of the forge's 422, in GitHub's shape. */
  const unprocessable = (message: string, errors?: object[]) => ({
    message,
    documentation_url: 'https://docs.github.com/rest',
    status: '422',
    ...(errors ? { errors } : {}),
  });
  const invalidRequest = (reason: string) => unprocessable(`Invalid request.\n\n${reason}`);
  const validationFailed = (resource: string, field: string, message: string) =>
    unprocessable('Validation Failed', [{ resource, field, code: 'custom', message }]);

  /** A repository with a pull request from `feature` (one file changed), CI started. */
  async function pullRequest(label: string): Promise<{ repository: string; number: number; head: string }> {
    const repository = uniqueRepository(label);
    const main = await forge('GET', `/repos/${repository}/git/ref/heads/main`);
    expect(main.status).toBe(200);
    expect(
      (
        await forge('POST', `/repos/${repository}/git/refs`, {
          ref: 'refs/heads/feature',
          sha: main.body.object.sha,
        })
      ).status,
    ).toBe(201);
    const put = await forge('PUT', `/repos/${repository}/contents/change.txt`, {
      message: 'change',
      content: base64('change\n'),
      branch: 'feature',
    });
    expect(put.status).toBe(201);
    const opened = await forge('POST', `/repos/${repository}/pulls`, {
      title: 'Change',
      head: 'feature',
      base: 'main',
    });
    expect(opened.status).toBe(201);
    return { repository, number: opened.body.number, head: put.body.commit.sha };
  }

  it('refuses a NUL in a ref with 422 (it answered 500)', async () => {
    const repository = uniqueRepository('forge-nul-ref');
    const main = await forge('GET', `/repos/${repository}/git/ref/heads/main`);
    const answer = await forge('POST', `/repos/${repository}/git/refs`, {
      ref: 'refs/heads/a\u0000b',
      sha: main.body.object.sha,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain("The body 'ref' must not contain the NUL character");
    expect((await forge('GET', `/repos/${repository}/branches`)).body).toHaveLength(1);
  });

  it('refuses NUL and lone surrogates anywhere in a request: path, query, body values and keys', async () => {
    const { repository, number } = await pullRequest('forge-text');
    for (const [method, path, body, reason] of [
      [
        'PATCH',
        `/repos/${repository}/pulls/${number}`,
        { title: 'x\uD800' },
        "The body 'title' must not contain a lone UTF-16 surrogate.",
      ],
      [
        'POST',
        `/repos/${repository}/issues/${number}/comments`,
        { body: 'hi', ['k\u0000']: 1 },
        "The body key 'k\u0000' must not contain the NUL character (U+0000).",
      ],
      [
        'POST',
        `/repos/${repository}/issues/${number}/labels`,
        ['ok', 'n\u0000'],
        "The body '[1]' must not contain the NUL character (U+0000).",
      ],
      [
        'GET',
        `/repos/${repository}/git/ref/heads/a%00b`,
        undefined,
        "The path '*' must not contain the NUL character (U+0000).",
      ],
      [
        'GET',
        `/repos/${repository}/pulls?base=%00`,
        undefined,
        "The query 'base' must not contain the NUL character (U+0000).",
      ],
    ] as const) {
      const answer = await forge(method, path, body);
      expect([method, path, answer.status]).toEqual([method, path, 422]);
      expect([method, path, answer.body]).toEqual([method, path, invalidRequest(reason)]);
    }
    const pull = await forge('GET', `/repos/${repository}/pulls/${number}`);
    expect([pull.body.title, pull.body.labels, pull.body.comments]).toEqual(['Change', [], 0]);
  });

  /** A GET sent with its path exactly as written (fetch would resolve `%2E%2E` as `..` itself). */
  const rawGet = (path: string) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const url = new URL(app.baseUrl);
      request(
        { host: url.hostname, port: url.port, path, headers: { authorization: `Bearer ${app.adminKey}` } },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            try {
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
            } catch (error) {
              reject(error);
            }
          });
        },
      )
        .on('error', reject)
        .end();
    });

  it('finds no repository named `.` or `..` (it made one)', async () => {
    for (const name of ['%2E%2E', '%2E', '%2e%2e'])
      expect([name, await rawGet(`/sandbox/github/repos/acme/${name}/branches`)]).toEqual([
        name,
        {
          status: 404,
          body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
        },
      ]);
    const listed = await forge('GET', '/installation/repositories');
    expect(listed.body.repositories.map((repo: { name: string }) => repo.name)).not.toContain('..');
  });

  it('refuses a check run completed in year 10000, or at a time that is not one', async () => {
    const { repository, head } = await pullRequest('forge-year');
    for (const completedAt of [
      '+010000-01-01T00:00:00Z',
      '10000-01-01T00:00:00Z',
      'yesterday',
      '2026-02-30T00:00:00Z',
    ]) {
      const answer = await forge('POST', `/repos/${repository}/check-runs`, {
        name: 'late',
        head_sha: head,
        status: 'completed',
        conclusion: 'success',
        completed_at: completedAt,
      });
      expect([completedAt, answer.status]).toEqual([completedAt, 422]);
      expect(answer.body).toEqual(
        invalidRequest(
          `For 'completed_at', "${completedAt}" is not a date-time (YYYY-MM-DDTHH:MM:SSZ, years 1 to 9999).`,
        ),
      );
    }
    const runs = await forge('GET', `/repos/${repository}/commits/${head}/check-runs`);
    expect(runs.body.check_runs.map((run: { name: string }) => run.name)).not.toContain('late');
  });

  it('caps labels as GitHub does: 100 on a pull request, 50 characters each (10,000 got no answer)', async () => {
    const { repository, number } = await pullRequest('forge-labels');
    const labels = (count: number, prefix = 'l') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    const many = await forge('POST', `/repos/${repository}/issues/${number}/labels`, {
      labels: labels(10_000),
    });
    expect(many.status).toBe(422);
    const tooManyLabels = validationFailed('Issue', 'labels', 'An issue may have at most 100 labels');
    expect(many.body).toEqual(tooManyLabels);
    expect(
      (await forge('POST', `/repos/${repository}/issues/${number}/labels`, { labels: labels(60) })).status,
    ).toBe(200);
    const past100 = await forge('POST', `/repos/${repository}/issues/${number}/labels`, {
      labels: labels(41, 'm'),
    });
    expect(past100.status).toBe(422);
    expect(past100.body).toEqual(tooManyLabels);
    const longName = await forge('POST', `/repos/${repository}/issues/${number}/labels`, {
      labels: ['x'.repeat(51)],
    });
    expect(longName.status).toBe(422);
    expect(longName.body).toEqual(
      validationFailed('Label', 'name', 'name is too long (maximum is 50 characters)'),
    );
    expect((await forge('GET', `/repos/${repository}/issues/${number}/labels`)).body).toHaveLength(60);
  });

  it('caps titles at 256 characters and requested reviewers at 15', async () => {
    const { repository, number } = await pullRequest('forge-title');
    const longTitle = await forge('PATCH', `/repos/${repository}/pulls/${number}`, {
      title: 'x'.repeat(257),
    });
    expect(longTitle.status).toBe(422);
    expect(longTitle.body).toEqual(
      validationFailed('PullRequest', 'title', 'title is too long (maximum is 256 characters)'),
    );
    const reviewers = Array.from({ length: 16 }, (_, i) => `reviewer-${i}`);
    const sixteen = await forge('POST', `/repos/${repository}/pulls/${number}/requested_reviewers`, {
      reviewers,
    });
    expect(sixteen.status).toBe(422);
    expect(sixteen.body).toEqual(
      unprocessable('Reviews may only be requested from 15 users and teams at most.'),
    );
    expect(
      (
        await forge('POST', `/repos/${repository}/pulls/${number}/requested_reviewers`, {
          reviewers: reviewers.slice(1),
        })
      ).status,
    ).toBe(201);
  });

  it("answers other repositories' reads while one repository takes its largest request", async () => {
    const { repository, number } = await pullRequest('forge-maximal');
    const other = uniqueRepository('forge-other');
    const junit = `<testsuite name="s"><testcase classname="t" name="ok"/></testsuite>`;
    const [owner, name] = other.split('/');
    const upload = await app.request(
      'POST',
      `/v1/ci/${owner}/repositories/${name}/junit?pipeline_name=ci&job_name=unit&head_sha=abc&branch=main`,
      { rawBody: junit, headers: { 'content-type': 'application/xml' } },
    );
    expect(upload.status).toBe(200);
    const labels = Array.from({ length: 100 }, (_, i) => `label-${i}`);
    const [maximal, tooMany, queues, search] = await Promise.all([
      forge('POST', `/repos/${repository}/issues/${number}/labels`, { labels }),
      forge('POST', `/repos/${repository}/issues/${number}/labels`, {
        labels: [...labels, ...labels.map((l) => `${l}x`)],
      }),
      app.request('GET', `/v1/repos/${repository}/queues`),
      app.request('GET', `/v1/ci/${owner}/repositories/${name}/search/tests`),
    ]);
    expect([maximal.status, tooMany.status, queues.status, search.status]).toEqual([200, 422, 200, 200]);
    expect(tooMany.body).toEqual(validationFailed('Issue', 'labels', 'An issue may have at most 100 labels'));
    expect(maximal.body).toHaveLength(100);
    expect((search.body as { tests: unknown[] }).tests).toHaveLength(1);
  });
}

describe('the sandbox forge at its limits (all-in-one app, sandbox mode, PGlite)', () =>
  forgeAtItsLimits(async () => ({ env: {}, drop: async () => {} })));

// On PostgreSQL, reads run beside writes on connections of their own: the case §4 is about.
(postgresAvailable() ? describe : describe.skip)(
  'the sandbox forge at its limits (all-in-one app, sandbox mode, PostgreSQL)',
  () =>
    forgeAtItsLimits(async () => {
      const database = await createFreshPostgresDatabase();
      return { env: { DATABASE_URL: database.url }, drop: () => database.drop() };
    }),
);

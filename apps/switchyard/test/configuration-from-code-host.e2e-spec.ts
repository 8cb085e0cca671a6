import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import { eventually } from '@switchyard/testing';
import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * The endpoints that read the repository through the code host, over HTTP against the all-in-one
 * app in sandbox mode: `GET queues/configuration` from the file on the default branch, and
 * `POST pulls/{number}/simulator` against a pull request opened on the sandbox forge. Each block
 * starts its own app.
 */
const CONFIGURATION = [
  'queue_rules:',
  '  - name: urgent',
  '    queue_conditions: [label=urgent]',
  '    batch_size: {min: 2, max: 8}',
  '    checks_timeout: 30 min',
  '  - name: default',
  '    merge_conditions: [check-success=ci]',
  'pull_request_rules:',
  '  - name: queue reviewed pull requests',
  '    conditions:',
  '      - base=main',
  '      - label=ready',
  '    actions:',
  '      queue:',
  '        name: default',
  '  - name: greet',
  '    conditions:',
  '      - title~=^Add',
  '    actions:',
  '      comment:',
  '        message: thanks',
  '',
].join('\n');

function sandboxApp(): { app: () => TestApp } {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
  }, 120_000);
  afterAll(() => app?.close());
  return { app: () => app };
}

const forge = (app: TestApp, method: string, path: string, body?: unknown) =>
  app.request(method, `/sandbox/github${path}`, { body, token: app.adminKey });

async function commitFile(app: TestApp, repository: string, path: string, text: string, branch = 'main') {
  const existing = await forge(app, 'GET', `/repos/${repository}/contents/${path}?ref=${branch}`);
  const put = await forge(app, 'PUT', `/repos/${repository}/contents/${path}`, {
    message: `edit ${path}`,
    content: Buffer.from(text, 'utf8').toString('base64'),
    branch,
    ...(existing.status === 200 ? { sha: existing.body.sha } : {}),
  });
  expect([200, 201]).toContain(put.status);
}

describe('GET queues/configuration from the default branch (all-in-one app, sandbox forge)', () => {
  jest.setTimeout(120_000);
  const { app } = sandboxApp();

  it('answers the rules in processing order', async () => {
    const repository = uniqueRepository('queue-config');
    await commitFile(app(), repository, '.mergify.yml', CONFIGURATION);
    const response = await app().request('GET', `/v1/repos/${repository}/queues/configuration`);
    expect(response.status).toBe(200);
    expect(response.body.configuration.map((rule: { name: string }) => rule.name)).toEqual([
      'urgent',
      'default',
    ]);
    expect(response.body.configuration[0]).toEqual({
      name: 'urgent',
      config: expect.objectContaining({
        batch_size: { min: 2, max: 8 },
        checks_timeout: 1800,
        batch_max_wait_time: 30,
        priority: 2,
      }),
    });
  });

  it('answers no rules without a file, and 422 for an invalid file with path and line', async () => {
    const repository = uniqueRepository('queue-config');
    await commitFile(app(), repository, 'README.md', '# nothing here\n');
    const empty = await app().request('GET', `/v1/repos/${repository}/queues/configuration`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ configuration: [] });

    await commitFile(
      app(),
      repository,
      '.github/mergify.yml',
      'queue_rules:\n  - name: default\n    batch_size: 0\n',
    );
    const invalid = await app().request('GET', `/v1/repos/${repository}/queues/configuration`);
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail).toEqual([
      expect.objectContaining({
        type: 'mergify_config_error',
        loc: ['configuration', '.github/mergify.yml'],
        msg: 'queue_rules[0].batch_size (line 3, column 5): must be between 1 and 128, got 0',
      }),
    ]);
  });
});

describe('POST pulls/{number}/simulator (all-in-one app, sandbox forge)', () => {
  jest.setTimeout(150_000);
  const { app } = sandboxApp();

  /** Waits until the `opened` webhook has given the pull request's snapshot. */
  const snapshotOf = (repository: string, number: number) =>
    eventually(`the snapshot of ${repository}#${number}`, () =>
      app().running.app.get(PullRequestSnapshots).find(repository, number),
    );

  it('judges the given file against the pull request the code host reported', async () => {
    const repository = uniqueRepository('pull-simulator');
    await commitFile(app(), repository, 'README.md', '# widgets\n');
    const main = await forge(app(), 'GET', `/repos/${repository}/git/ref/heads/main`);
    const branch = await forge(app(), 'POST', `/repos/${repository}/git/refs`, {
      ref: 'refs/heads/feature',
      sha: main.body.object.sha,
    });
    expect(branch.status).toBe(201);
    await commitFile(app(), repository, 'src/app.txt', 'hello\n', 'feature');
    const opened = await forge(app(), 'POST', `/repos/${repository}/pulls`, {
      title: 'Add the app',
      head: 'feature',
      base: 'main',
    });
    expect(opened.status).toBe(201);
    const number = opened.body.number as number;
    await snapshotOf(repository, number);

    const response = await app().request('POST', `/v1/repos/${repository}/pulls/${number}/simulator`, {
      body: { mergify_yml: CONFIGURATION },
    });
    expect(response.status).toBe(200);
    expect(response.body.title).toBe('1 rule matches');
    expect(response.body.summary).toContain('### Rule: greet (comment)\n- [X] `title~=^Add`');
    expect(response.body.summary).toContain('<summary>1 not applicable rule</summary>');
    expect(response.body.summary).toContain('- [ ] `label=ready`');
    expect(response.body.deprecations).toEqual([]);

    const invalid = await app().request('POST', `/v1/repos/${repository}/pulls/${number}/simulator`, {
      body: { mergify_yml: 'pull_request_rules: not-a-list\n' },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail).toEqual([
      expect.objectContaining({
        msg: 'pull_request_rules (line 1, column 1): expected a list of pull request rules',
      }),
    ]);

    const unknown = await app().request('POST', `/v1/repos/${repository}/pulls/999999/simulator`, {
      body: { mergify_yml: CONFIGURATION },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Pull request #999999 not found' });
  });

  it('answers /healthz while it judges a hostile regex on a long title (issue 33, defect 3)', async () => {
    const repository = uniqueRepository('pull-simulator');
    await commitFile(app(), repository, 'README.md', '# widgets\n');
    const main = await forge(app(), 'GET', `/repos/${repository}/git/ref/heads/main`);
    await forge(app(), 'POST', `/repos/${repository}/git/refs`, {
      ref: 'refs/heads/feature',
      sha: main.body.object.sha,
    });
    await commitFile(app(), repository, 'src/app.txt', 'hello\n', 'feature');
    // A backtracking engine needs 2^34 steps for this one: 6.5 s at 30 characters, 4x per 2 more.
    const title = `${'a'.repeat(34)}!`;
    const opened = await forge(app(), 'POST', `/repos/${repository}/pulls`, {
      title,
      head: 'feature',
      base: 'main',
    });
    const number = opened.body.number as number;
    await snapshotOf(repository, number);
    const hostile = [
      'pull_request_rules:',
      '  - name: catastrophic',
      '    conditions:',
      '      - title~=^(a+)+$',
      '    actions:',
      '      comment:',
      '        message: never',
      '',
    ].join('\n');

    // Both at once: while the simulator holds the event loop, nothing else is answered, so the
    // health probe would only come back after it. The bound is a correctness bound (the answer
    // takes milliseconds), not a timing claim.
    const bound = new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 30_000).unref());
    const simulation = app().request('POST', `/v1/repos/${repository}/pulls/${number}/simulator`, {
      body: { mergify_yml: hostile },
    });
    const health = app().request('GET', '/healthz', { token: null });
    expect(await Promise.race([health.then((response) => response.status), bound])).toBe(200);
    const simulated = await Promise.race([simulation, bound]);
    expect(simulated).not.toBe('blocked');
    if (simulated === 'blocked') return;
    expect(simulated.status).toBe(200);
    expect(simulated.body.title).toBe('no rules match, no planned actions');
    expect(simulated.body.summary).toContain('- [ ] `title~=^(a+)+$`');
  });
});

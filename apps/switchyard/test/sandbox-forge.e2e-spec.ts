import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxForge } from '@switchyard/sandbox-forge';
import {
  ContractCheckedClient,
  WebhookRecorder,
  type RecordedDelivery,
} from '@switchyard/github/testing/github-contract';
import { startTestApp, type TestApp } from './harness';
import { uniqueRepository } from './unique-repository';

/**
 * The sandbox forge over HTTP, spoken to with nothing but GitHub's REST paths and shapes: every
 * answer is held against @octokit/openapi and every webhook against @octokit/openapi-webhooks and
 * its signature. Deliveries go to a recorder standing in for an App's webhook endpoint.
 */
const SECRET = 'sandbox-e2e-webhook-secret';
const REVIEWER_TOKEN = 'reviewer-host-token-0123456789';
const HOST_TOKENS = JSON.stringify({
  [REVIEWER_TOKEN]: { user: { id: 4242, login: 'rita-reviewer' }, accounts: ['acme'] },
});

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('sandbox forge over HTTP (all-in-one app, sandbox mode)', () => {
  // Each test makes a few dozen calls on a shared, loaded machine.
  jest.setTimeout(120_000);
  let app: TestApp;
  let hooks: WebhookRecorder;
  let github: ContractCheckedClient;

  beforeAll(async () => {
    hooks = await WebhookRecorder.start(() => SECRET);
    app = await startTestApp({
      SWITCHYARD_GITHUB_WEBHOOK_SECRET: SECRET,
      SWITCHYARD_SANDBOX_CI_SECONDS: '0',
      SWITCHYARD_SANDBOX_WEBHOOK_URL: hooks.url,
      SWITCHYARD_HOST_TOKENS: HOST_TOKENS,
    });
    github = new ContractCheckedClient(`${app.baseUrl}/sandbox/github`, app.adminKey);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await hooks?.close();
  });

  /** Commits a file on a branch through `contents`, answering the new commit's sha. */
  async function commitFile(repository: string, branch: string, path: string, text: string): Promise<string> {
    const existing = await github.request('GET', `/repos/${repository}/contents/${path}?ref=${branch}`);
    const put = await github.request('PUT', `/repos/${repository}/contents/${path}`, {
      message: `edit ${path}`,
      content: base64(text),
      branch,
      ...(existing.status === 200 ? { sha: existing.body.sha } : {}),
    });
    expect([200, 201]).toContain(put.status);
    return put.body.commit.sha;
  }

  async function branchFromMain(repository: string, branch: string): Promise<void> {
    const main = await github.request('GET', `/repos/${repository}/git/ref/heads/main`);
    expect(main.status).toBe(200);
    const created = await github.request('POST', `/repos/${repository}/git/refs`, {
      ref: `refs/heads/${branch}`,
      sha: main.body.object.sha,
    });
    expect(created.status).toBe(201);
  }

  const ciCompleted = (repository: string, sha: string) =>
    hooks.waitFor(
      (delivery) =>
        delivery.event === 'check_run' &&
        delivery.action === 'completed' &&
        delivery.payload.repository.full_name === repository &&
        delivery.payload.check_run.head_sha === sha,
    );

  const deliveriesOf = (repository: string): RecordedDelivery[] =>
    hooks.deliveries.filter((delivery) => delivery.payload.repository?.full_name === repository);

  it('commits, branches, opens a pull request, labels, reviews and comments, and CI marks the head success', async () => {
    const repository = uniqueRepository('sandbox-flow');

    const readme = await github.request('PUT', `/repos/${repository}/contents/README.md`, {
      message: 'Add a README',
      content: base64('# widgets\n'),
    });
    expect(readme.status).toBe(201);
    expect(readme.body.commit.parents).toHaveLength(1);

    await branchFromMain(repository, 'feature/greeting');
    const head = await commitFile(repository, 'feature/greeting', 'src/greeting.txt', 'hello\n');

    const opened = await github.request('POST', `/repos/${repository}/pulls`, {
      title: 'Greet',
      head: 'feature/greeting',
      base: 'main',
      body: 'Says hello',
    });
    expect(opened.status).toBe(201);
    const number = opened.body.number as number;
    expect(opened.body).toMatchObject({
      state: 'open',
      draft: false,
      head: { ref: 'feature/greeting', sha: head },
      base: { ref: 'main', sha: readme.body.commit.sha },
      mergeable: true,
      mergeable_state: 'clean',
      commits: 1,
      changed_files: 1,
    });

    const labels = await github.request('POST', `/repos/${repository}/issues/${number}/labels`, {
      labels: ['ready'],
    });
    expect(labels.status).toBe(200);
    expect(labels.body.map((label: { name: string }) => label.name)).toEqual(['ready']);

    const review = await github
      .as(REVIEWER_TOKEN, 'Bearer')
      .request('POST', `/repos/${repository}/pulls/${number}/reviews`, { event: 'APPROVE', body: 'Ship it' });
    expect(review.status).toBe(200);
    expect(review.body).toMatchObject({
      state: 'APPROVED',
      commit_id: head,
      user: { login: 'rita-reviewer' },
    });

    const comment = await github.request('POST', `/repos/${repository}/issues/${number}/comments`, {
      body: '@mergify refresh',
    });
    expect(comment.status).toBe(201);

    const completed = await ciCompleted(repository, head);
    expect(completed.payload.check_run).toMatchObject({
      name: 'ci',
      status: 'completed',
      conclusion: 'success',
    });
    const runs = await github.request('GET', `/repos/${repository}/commits/${head}/check-runs`);
    expect(runs.body.check_runs).toEqual([
      expect.objectContaining({ name: 'ci', conclusion: 'success', head_sha: head }),
    ]);

    const files = await github.request('GET', `/repos/${repository}/pulls/${number}/files`);
    expect(
      files.body.map((file: { filename: string; status: string }) => [file.filename, file.status]),
    ).toEqual([['src/greeting.txt', 'added']]);
    const pull = await github.request('GET', `/repos/${repository}/pulls/${number}`);
    expect(pull.body.labels.map((label: { name: string }) => label.name)).toEqual(['ready']);
    expect(pull.body.comments).toBe(1);

    // Deliveries go out one by one, in no promised order across events: wait for each of them (a
    // loaded machine can finish CI before the comment's delivery has gone out).
    const expected = [
      'push',
      'pull_request.opened',
      'pull_request.labeled',
      'pull_request_review.submitted',
      'issue_comment.created',
      'check_run.created',
      'check_run.completed',
      'check_suite.completed',
    ];
    const kindOf = (delivery: { event: string; action?: string | null }) =>
      `${delivery.event}${delivery.action ? `.${delivery.action}` : ''}`;
    for (const kind of expected)
      await hooks.waitFor(
        (delivery) => kindOf(delivery) === kind && delivery.payload.repository.full_name === repository,
      );
    expect(deliveriesOf(repository).map(kindOf)).toEqual(expect.arrayContaining(expected));
    for (const delivery of deliveriesOf(repository)) {
      expect({ event: delivery.event, signed: delivery.signatureValid }).toEqual({
        event: delivery.event,
        signed: true,
      });
      expect(delivery.headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
      expect(delivery.violations).toEqual([]);
    }
    // One id per change; a retried delivery (a slow answer on a loaded machine) keeps its id and
    // payload, as GitHub's redeliveries do, so the intake can drop the copy.
    const byId = new Map<string, string>();
    for (const delivery of deliveriesOf(repository)) {
      const body = JSON.stringify(delivery.payload);
      expect(byId.get(delivery.delivery) ?? body).toBe(body);
      byId.set(delivery.delivery, body);
    }
    const commentHook = hooks
      .of('issue_comment', 'created')
      .find((delivery) => delivery.payload.repository.full_name === repository)!;
    expect(commentHook.payload).toMatchObject({
      comment: { body: '@mergify refresh' },
      issue: { number, pull_request: {} },
    });
    expect(github.violations).toEqual([]);
  });

  it('edits a comment in place (issue_comment edited, with the old body) and pages the conversation', async () => {
    const repository = uniqueRepository('sandbox-comments');
    await commitFile(repository, 'main', 'README.md', 'widgets\n');
    await branchFromMain(repository, 'talk');
    await commitFile(repository, 'talk', 'talk.txt', 'talk\n');
    const opened = await github.request('POST', `/repos/${repository}/pulls`, {
      title: 'Talk',
      head: 'talk',
      base: 'main',
    });
    const number = opened.body.number as number;
    const ids: number[] = [];
    for (const body of ['first', 'second', 'third']) {
      const posted = await github.request('POST', `/repos/${repository}/issues/${number}/comments`, { body });
      expect(posted.status).toBe(201);
      ids.push(posted.body.id);
    }

    const edited = await github.request('PATCH', `/repos/${repository}/issues/comments/${ids[1]}`, {
      body: 'second, edited',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: ids[1], body: 'second, edited' });
    const read = await github.request('GET', `/repos/${repository}/issues/comments/${ids[1]}`);
    expect(read.body.body).toBe('second, edited');
    const hook = await hooks.waitFor(
      (delivery) =>
        delivery.event === 'issue_comment' &&
        delivery.action === 'edited' &&
        delivery.payload.repository.full_name === repository,
    );
    expect(hook.payload).toMatchObject({
      changes: { body: { from: 'second' } },
      comment: { id: ids[1], body: 'second, edited' },
      issue: { number, pull_request: {} },
    });
    expect(hook.violations).toEqual([]);
    expect(hook.signatureValid).toBe(true);

    // GitHub's pages: `per_page` items, a Link header to the next and last pages, none on the last.
    const first = await github.request('GET', `/repos/${repository}/issues/${number}/comments?per_page=2`);
    expect(first.body.map((comment: { id: number }) => comment.id)).toEqual(ids.slice(0, 2));
    expect(first.headers.get('link')).toMatch(
      /[?&]per_page=2&page=2>; rel="next", <[^>]*[?&]page=2>; rel="last"/,
    );
    const second = await github.request(
      'GET',
      `/repos/${repository}/issues/${number}/comments?per_page=2&page=2`,
    );
    expect(second.body.map((comment: { body: string }) => comment.body)).toEqual(['third']);
    expect(second.headers.get('link')).not.toMatch(/rel="next"/);
    expect((await github.request('GET', `/repos/${repository}/pulls/${number}`)).body.comments).toBe(3);

    const missing = await github.request('PATCH', `/repos/${repository}/issues/comments/999999999`, {
      body: 'nobody',
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest',
      status: '404',
    });
    const empty = await github.request('PATCH', `/repos/${repository}/issues/comments/${ids[0]}`, {});
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({
      message: 'Invalid request.\n\n"body" wasn\'t supplied.',
      documentation_url: 'https://docs.github.com/rest',
      status: '422',
    });
    // The one drift is the test's own: a PATCH without the body GitHub requires.
    expect(github.violations).toEqual([
      expect.stringMatching(/^PATCH \/repos\/\S+\/issues\/comments\/\d+ \(request\): .*body/),
    ]);
    github.violations.length = 0;
  });

  it('fails CI for a tree holding the `sandbox-ci: fail` marker', async () => {
    const repository = uniqueRepository('sandbox-ci-fail');
    await commitFile(repository, 'main', 'README.md', 'widgets\n');
    await branchFromMain(repository, 'broken');
    const head = await commitFile(repository, 'broken', 'test/broken.sh', 'echo no\n# sandbox-ci: fail\n');
    const opened = await github.request('POST', `/repos/${repository}/pulls`, {
      title: 'Break',
      head: 'broken',
      base: 'main',
      draft: true,
    });
    expect(opened.status).toBe(201);
    expect(opened.body.mergeable_state).toBe('draft');

    const completed = await ciCompleted(repository, head);
    expect(completed.payload.check_run.conclusion).toBe('failure');
    const suite = await hooks.waitFor(
      (delivery) => delivery.event === 'check_suite' && delivery.payload.check_suite.head_sha === head,
    );
    expect(suite.payload.check_suite.conclusion).toBe('failure');
    expect(github.violations).toEqual([]);
  });

  it('merges with merge, squash and rebase from the trees, and refuses a conflicting pull request', async () => {
    const repository = uniqueRepository('sandbox-merge');
    await commitFile(repository, 'main', 'shared.txt', 'one\n');
    for (const branch of ['a', 'b', 'c', 'd']) await branchFromMain(repository, branch);
    await commitFile(repository, 'a', 'a.txt', 'a\n');
    await commitFile(repository, 'b', 'b.txt', 'b\n');
    await commitFile(repository, 'c', 'shared.txt', 'from c\n');
    await commitFile(repository, 'd', 'shared.txt', 'from d\n');
    const open = async (branch: string) =>
      (
        await github.request('POST', `/repos/${repository}/pulls`, {
          title: branch,
          head: branch,
          base: 'main',
        })
      ).body.number as number;
    const [a, b, c, d] = [await open('a'), await open('b'), await open('c'), await open('d')];

    const merged = await github.request('PUT', `/repos/${repository}/pulls/${a}/merge`, {
      merge_method: 'merge',
    });
    expect(merged.status).toBe(200);
    const mergeCommit = await github.request('GET', `/repos/${repository}/git/commits/${merged.body.sha}`);
    expect(mergeCommit.body.parents).toHaveLength(2);

    const squashed = await github.request('PUT', `/repos/${repository}/pulls/${b}/merge`, {
      merge_method: 'squash',
    });
    expect(squashed.status).toBe(200);
    const squashCommit = await github.request('GET', `/repos/${repository}/git/commits/${squashed.body.sha}`);
    expect(squashCommit.body.parents.map((parent: { sha: string }) => parent.sha)).toEqual([merged.body.sha]);

    const rebased = await github.request('PUT', `/repos/${repository}/pulls/${c}/merge`, {
      merge_method: 'rebase',
    });
    expect(rebased.status).toBe(200);
    const main = await github.request('GET', `/repos/${repository}/contents/shared.txt?ref=main`);
    expect(Buffer.from(main.body.content, 'base64').toString()).toBe('from c\n');
    for (const file of ['a.txt', 'b.txt']) {
      expect((await github.request('GET', `/repos/${repository}/contents/${file}?ref=main`)).status).toBe(
        200,
      );
    }

    const conflicted = await github.request('GET', `/repos/${repository}/pulls/${d}`);
    expect(conflicted.body).toMatchObject({ mergeable: false, mergeable_state: 'dirty' });
    const refused = await github.request('PUT', `/repos/${repository}/pulls/${d}/merge`, {});
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('Pull Request is not mergeable');
    const stale = await github.request('PUT', `/repos/${repository}/pulls/${a}/merge`, {});
    expect(stale.status).toBe(405);
    expect(stale.body.message).toBe('Pull Request is not mergeable');

    const closed = await github.request('GET', `/repos/${repository}/pulls/${a}`);
    expect(closed.body).toMatchObject({ state: 'closed', merged: true, merge_commit_sha: merged.body.sha });
    const compare = await github.request('GET', `/repos/${repository}/compare/main...d`);
    expect(compare.body).toMatchObject({ status: 'diverged', ahead_by: 1 });
    expect(github.violations).toEqual([]);
  });

  it("answers every other endpoint in GitHub's shape: statuses, check runs, reviews, requests, branches, teams, the App", async () => {
    const repository = uniqueRepository('sandbox-surface');
    const [owner] = repository.split('/');
    await commitFile(repository, 'main', 'README.md', 'widgets\n');
    await branchFromMain(repository, 'topic');
    const head = await commitFile(repository, 'topic', 'topic.txt', 'topic\n');
    await commitFile(repository, 'main', 'later.txt', 'later\n');
    const number = (
      await github.request('POST', `/repos/${repository}/pulls`, {
        title: 'Topic',
        head: 'topic',
        base: 'main',
      })
    ).body.number as number;
    const call = async (method: string, path: string, status: number, body?: unknown) => {
      const answer = await github.request(method, path, body);
      expect({ call: `${method} ${path}`, status: answer.status }).toEqual({
        call: `${method} ${path}`,
        status,
      });
      return answer.body;
    };

    await call('POST', `/repos/${repository}/statuses/${head}`, 201, { state: 'pending', context: 'lint' });
    await call('POST', `/repos/${repository}/statuses/${head}`, 201, {
      state: 'success',
      context: 'lint',
      description: 'ok',
    });
    expect(await call('GET', `/repos/${repository}/commits/${head}/status`, 200)).toMatchObject({
      state: 'success',
      total_count: 1,
    });
    expect(await call('GET', `/repos/${repository}/commits/${head}/statuses`, 200)).toHaveLength(2);
    const check = await call('POST', `/repos/${repository}/check-runs`, 201, {
      name: 'lint',
      head_sha: head,
      status: 'in_progress',
    });
    const done = await call('PATCH', `/repos/${repository}/check-runs/${check.id}`, 200, {
      conclusion: 'neutral',
      output: { title: 'Lint', summary: 'nothing to say' },
    });
    expect(done).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    await call('GET', `/repos/${repository}/check-runs/${check.id}`, 200);
    await hooks.waitFor(
      (d) => d.event === 'check_run' && d.action === 'completed' && d.payload.check_run.id === check.id,
    );

    await call('POST', `/repos/${repository}/pulls/${number}/requested_reviewers`, 201, {
      reviewers: ['rita-reviewer'],
    });
    expect(await call('GET', `/repos/${repository}/pulls/${number}/requested_reviewers`, 200)).toMatchObject({
      users: [{ login: 'rita-reviewer' }],
    });
    await call('DELETE', `/repos/${repository}/pulls/${number}/requested_reviewers`, 200, {
      reviewers: ['rita-reviewer'],
    });
    await github.as(REVIEWER_TOKEN).request('POST', `/repos/${repository}/pulls/${number}/reviews`, {
      event: 'REQUEST_CHANGES',
      body: 'Not yet',
    });
    expect(await call('GET', `/repos/${repository}/pulls/${number}/reviews`, 200)).toEqual([
      expect.objectContaining({ state: 'CHANGES_REQUESTED' }),
    ]);
    await call('PUT', `/repos/${repository}/issues/${number}/labels`, 200, { labels: ['a', 'b'] });
    expect(await call('DELETE', `/repos/${repository}/issues/${number}/labels/a`, 200)).toEqual([
      expect.objectContaining({ name: 'b' }),
    ]);
    await call('GET', `/repos/${repository}/issues/${number}/labels`, 200);
    await call('GET', `/repos/${repository}/issues/${number}/comments`, 200);
    await call('PATCH', `/repos/${repository}/pulls/${number}`, 200, { title: 'Topic, renamed' });
    expect(await call('GET', `/repos/${repository}/pulls/${number}/commits`, 200)).toHaveLength(1);
    await call('PUT', `/repos/${repository}/pulls/${number}/update-branch`, 202, { expected_head_sha: head });
    const updated = await call('GET', `/repos/${repository}/pulls/${number}`, 200);
    expect(updated.head.sha).not.toBe(head);
    await hooks.waitFor(
      (d) =>
        d.event === 'pull_request' && d.action === 'synchronize' && d.payload.pull_request.id === updated.id,
    );
    expect(await call('GET', `/repos/${repository}/pulls?state=all`, 200)).toHaveLength(1);

    await call('GET', `/repos/${repository}`, 200);
    expect(await call('GET', `/repos/${repository}/branches`, 200)).toHaveLength(2);
    await call('GET', `/repos/${repository}/branches/topic`, 200);
    expect(await call('GET', `/repos/${repository}/git/matching-refs/heads/to`, 200)).toHaveLength(1);
    await call('GET', `/repos/${repository}/commits/main`, 200);
    await commitFile(repository, 'main', 'docs/guide.md', 'guide\n');
    expect(await call('GET', `/repos/${repository}/contents/docs`, 200)).toEqual([
      expect.objectContaining({ type: 'file', path: 'docs/guide.md' }),
    ]);
    await call('POST', `/repos/${repository}/merges`, 201, { base: 'main', head: 'topic' });
    await call('POST', `/repos/${repository}/merges`, 204, { base: 'main', head: 'topic' });
    const closedByPush = await call('GET', `/repos/${repository}/pulls/${number}`, 200);
    expect(closedByPush).toMatchObject({ state: 'closed', merged: true });
    expect(await call('PATCH', `/repos/${repository}/git/refs/heads/topic`, 422, { sha: head })).toEqual({
      message: 'Update is not a fast forward',
      documentation_url: 'https://docs.github.com/rest',
      status: '422',
    });
    await call('DELETE', `/repos/${repository}/git/refs/heads/topic`, 204);

    await call('POST', `/orgs/${owner}/teams`, 201, { name: `Core ${number} ${repository.split('/')[1]}` });
    const [team] = await call('GET', `/orgs/${owner}/teams`, 200);
    await call('PUT', `/orgs/${owner}/teams/${team.slug}/memberships/octo`, 200);
    await call('GET', `/orgs/${owner}/teams/${team.slug}/memberships/octo`, 200);
    expect(await call('GET', `/orgs/${owner}/teams/${team.slug}/members`, 200)).toEqual([
      expect.objectContaining({ login: 'octo' }),
    ]);
    await call('GET', `/orgs/${owner}/teams/${team.slug}`, 200);
    await call('DELETE', `/orgs/${owner}/teams/${team.slug}/memberships/octo`, 204);

    await call('GET', '/app', 200);
    await call('GET', '/app/installations', 200);
    await call('GET', `/repos/${repository}/installation`, 200);
    await call('GET', `/orgs/${owner}/installation`, 200);
    const token = await call('POST', '/app/installations/1/access_tokens', 201);
    expect((await github.as(token.token, 'Bearer').request('GET', '/installation/repositories')).status).toBe(
      200,
    );
    await call('GET', '/user', 200);
    await call('GET', `/repos/${repository}/collaborators/rita-reviewer/permission`, 200);

    for (const delivery of deliveriesOf(repository)) {
      expect({ hook: `${delivery.event}.${delivery.action}`, violations: delivery.violations }).toEqual({
        hook: `${delivery.event}.${delivery.action}`,
        violations: [],
      });
    }
    expect(github.violations).toEqual([]);
  });

  it('announces a new owner with installation.created and its next repository with installation_repositories.added', async () => {
    const owner = `org-${uniqueRepository('owner').split('/')[1]}`;
    expect((await github.request('GET', `/repos/${owner}/first`)).status).toBe(200);
    expect((await github.request('GET', `/repos/${owner}/second`)).status).toBe(200);
    const created = await hooks.waitFor(
      (d) => d.event === 'installation' && d.payload.repositories?.[0]?.full_name === `${owner}/first`,
    );
    const added = await hooks.waitFor(
      (d) =>
        d.event === 'installation_repositories' &&
        d.payload.repositories_added?.[0]?.full_name === `${owner}/second`,
    );
    for (const delivery of [created, added]) {
      expect({
        hook: `${delivery.event}.${delivery.action}`,
        signed: delivery.signatureValid,
        violations: delivery.violations,
      }).toEqual({
        hook: `${delivery.event}.${delivery.action}`,
        signed: true,
        violations: [],
      });
    }
    expect(created.action).toBe('created');
    expect(added.action).toBe('added');
    expect(github.violations).toEqual([]);
  });

  it("answers errors in GitHub's shape and refuses unknown tokens", async () => {
    const repository = uniqueRepository('sandbox-errors');
    const missing = await github.request('GET', `/repos/${repository}/pulls/999`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ message: 'Not Found', documentation_url: expect.any(String) });
    const invalid = await github.request('POST', `/repos/${repository}/pulls`, {
      title: 'x',
      head: 'nope',
      base: 'main',
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual({
      message: 'Validation Failed',
      documentation_url: 'https://docs.github.com/rest',
      status: '422',
      errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }],
    });
    const denied = await github.as('not-a-known-token').request('GET', `/repos/${repository}`);
    expect(denied.status).toBe(401);
    expect(denied.body.message).toBe('Bad credentials');
    expect(github.violations).toEqual([]);
  });
});

describe("sandbox forge delivering to the service's own webhook intake", () => {
  it('signs with the generated secret, and the intake at /webhooks/github accepts every delivery', async () => {
    const app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
    try {
      const github = new ContractCheckedClient(`${app.baseUrl}/sandbox/github`, app.adminKey);
      const repository = uniqueRepository('sandbox-intake');
      await github.request('PUT', `/repos/${repository}/contents/README.md`, {
        message: 'readme',
        content: base64('hi\n'),
      });
      const main = await github.request('GET', `/repos/${repository}/git/ref/heads/main`);
      await github.request('POST', `/repos/${repository}/git/refs`, {
        ref: 'refs/heads/topic',
        sha: main.body.object.sha,
      });
      await github.request('PUT', `/repos/${repository}/contents/topic.txt`, {
        message: 'topic',
        content: base64('topic\n'),
        branch: 'topic',
      });
      const opened = await github.request('POST', `/repos/${repository}/pulls`, {
        title: 'Topic',
        head: 'topic',
        base: 'main',
      });
      await github.request('POST', `/repos/${repository}/issues/${opened.body.number}/comments`, {
        body: '@mergify refresh',
      });

      // Condition wait: every delivery of this repository is done with (sent, or given up).
      const sql = app.running.storage.executor;
      const deliveries = async () =>
        (
          await sql.query<{ event: string; status: number | null; delivered: boolean }>(
            `SELECT event, status, delivered_at IS NOT NULL AS delivered FROM sandbox_deliveries
             WHERE payload->'repository'->>'full_name' = $1 ORDER BY id`,
            [repository],
          )
        ).rows;
      const deadline = performance.now() + 60_000;
      let rows = await deliveries();
      while (rows.some((row) => !row.delivered) || !rows.some((row) => row.event === 'check_suite')) {
        if (performance.now() > deadline)
          throw new Error(`deliveries still pending: ${JSON.stringify(rows)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        rows = await deliveries();
      }
      expect(rows.map((row) => row.event)).toEqual(
        expect.arrayContaining(['push', 'pull_request', 'issue_comment', 'check_run', 'check_suite']),
      );
      for (const row of rows)
        expect({ event: row.event, status: row.status }).toEqual({
          event: row.event,
          status: expect.any(Number),
        });
      expect(rows.filter((row) => row.status! < 200 || row.status! >= 300)).toEqual([]);
      expect(github.violations).toEqual([]);
    } finally {
      await app.close();
    }
  }, 120_000);
});

describe('sandbox forge across a restart (all-in-one app on a data directory)', () => {
  it('keeps its repositories, pull requests and generated webhook secret, and finishes a pending CI run', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-sandbox-'));
    let secret = '';
    const hooks = await WebhookRecorder.start(() => secret);
    const env = { SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_SANDBOX_WEBHOOK_URL: hooks.url };
    const repository = uniqueRepository('sandbox-restart');
    let first: TestApp | null = await startTestApp(env);
    let second: TestApp | null = null;
    try {
      secret = first.running.app.get(SandboxForge).webhookSecret;
      const before = new ContractCheckedClient(`${first.baseUrl}/sandbox/github`, first.adminKey);
      await before.request('PUT', `/repos/${repository}/contents/README.md`, {
        message: 'readme',
        content: base64('hi\n'),
      });
      const main = await before.request('GET', `/repos/${repository}/git/ref/heads/main`);
      await before.request('POST', `/repos/${repository}/git/refs`, {
        ref: 'refs/heads/slow',
        sha: main.body.object.sha,
      });
      const put = await before.request('PUT', `/repos/${repository}/contents/slow.txt`, {
        message: 'slow tests',
        content: base64('sandbox-ci: seconds 8\n'),
        branch: 'slow',
      });
      const head = put.body.commit.sha as string;
      const opened = await before.request('POST', `/repos/${repository}/pulls`, {
        title: 'Slow',
        head: 'slow',
        base: 'main',
      });
      expect(opened.status).toBe(201);
      await hooks.waitFor(
        (delivery) =>
          delivery.event === 'check_run' &&
          delivery.action === 'created' &&
          delivery.payload.check_run.head_sha === head,
      );
      await first.close();
      first = null;

      second = await startTestApp(env);
      expect(second.running.app.get(SandboxForge).webhookSecret).toBe(secret);
      const after = new ContractCheckedClient(`${second.baseUrl}/sandbox/github`, second.adminKey);
      const pull = await after.request('GET', `/repos/${repository}/pulls/${opened.body.number}`);
      expect(pull.body).toMatchObject({ title: 'Slow', state: 'open', head: { sha: head } });
      const readme = await after.request('GET', `/repos/${repository}/contents/README.md`);
      expect(Buffer.from(readme.body.content, 'base64').toString()).toBe('hi\n');

      const completed = await hooks.waitFor(
        (delivery) =>
          delivery.event === 'check_run' &&
          delivery.action === 'completed' &&
          delivery.payload.check_run.head_sha === head,
      );
      expect(completed.payload.check_run.conclusion).toBe('success');
      expect(completed.signatureValid).toBe(true);
      expect([...before.violations, ...after.violations]).toEqual([]);
    } finally {
      await first?.close();
      await second?.close();
      await hooks.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

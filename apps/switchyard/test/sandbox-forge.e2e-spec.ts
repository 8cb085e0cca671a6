import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxForge } from '@switchyard/code-host/sandbox';
import {
  ContractCheckedClient,
  WebhookRecorder,
  type RecordedDelivery,
} from '@switchyard/code-host/testing/github-contract';
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

    await hooks.waitFor(
      (delivery) => delivery.event === 'check_suite' && delivery.payload.repository.full_name === repository,
    );
    const seen = deliveriesOf(repository).map(
      (delivery) => `${delivery.event}${delivery.action ? `.${delivery.action}` : ''}`,
    );
    expect(seen).toEqual(
      expect.arrayContaining([
        'push',
        'pull_request.opened',
        'pull_request.labeled',
        'pull_request_review.submitted',
        'issue_comment.created',
        'check_run.created',
        'check_run.completed',
        'check_suite.completed',
      ]),
    );
    for (const delivery of deliveriesOf(repository)) {
      expect({ event: delivery.event, signed: delivery.signatureValid }).toEqual({
        event: delivery.event,
        signed: true,
      });
      expect(delivery.headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
      expect(delivery.violations).toEqual([]);
    }
    expect(new Set(deliveriesOf(repository).map((delivery) => delivery.delivery)).size).toBe(
      deliveriesOf(repository).length,
    );
    const commentHook = hooks
      .of('issue_comment', 'created')
      .find((delivery) => delivery.payload.repository.full_name === repository)!;
    expect(commentHook.payload).toMatchObject({
      comment: { body: '@mergify refresh' },
      issue: { number, pull_request: {} },
    });
    expect(github.violations).toEqual([]);
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

    const closed = await github.request('GET', `/repos/${repository}/pulls/${a}`);
    expect(closed.body).toMatchObject({ state: 'closed', merged: true, merge_commit_sha: merged.body.sha });
    const compare = await github.request('GET', `/repos/${repository}/compare/main...d`);
    expect(compare.body).toMatchObject({ status: 'diverged', ahead_by: 1 });
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
    const denied = await github.as('not-a-known-token').request('GET', `/repos/${repository}`);
    expect(denied.status).toBe(401);
    expect(denied.body.message).toBe('Bad credentials');
    expect(github.violations).toEqual([]);
  });
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

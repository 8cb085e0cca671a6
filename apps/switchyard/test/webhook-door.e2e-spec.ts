import examples from '@octokit/webhooks-examples/api.github.com/index.json';
import { createHmac } from 'node:crypto';
import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import { startTestApp, type TestApp } from './harness';

type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SECRET = 'test-webhook-secret-0123456789';

const example = (event: string, action?: string): Payload =>
  structuredClone(
    (examples as { name: string; examples: Payload[] }[])
      .find((group) => group.name === event)!
      .examples.find((payload) => action === undefined || payload.action === action)!,
  );

/** GitHub's own example of `event`, about a repository of the test's own, changed by `change`. */
function delivery(event: string, action: string | undefined, change: (payload: Payload) => void = () => {}) {
  const payload = example(event, action);
  if (payload.repository) {
    payload.repository.full_name = `door-owner/door-${++deliveries}`;
    payload.repository.name = `door-${deliveries}`;
    payload.repository.owner.login = 'door-owner';
  }
  change(payload);
  return payload;
}
let deliveries = 0;

/**
 * Issue 33 §1: a signed delivery the intake cannot read is refused at the door (400 naming the
 * field, logged, counted in /readyz), records nothing, and so cannot stop a processor: the queue's
 * processors keep reading what comes next.
 */
describe('the webhook door (all-in-one app)', () => {
  jest.setTimeout(120_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_GITHUB_WEBHOOK_SECRET: SECRET });
  }, 120_000);
  afterAll(() => app?.close());

  const store = () => app.running.storage.store;

  async function send(event: string, payload: unknown, rawBody = JSON.stringify(payload)) {
    return app.request<{ status?: string; detail?: string }>('POST', '/webhooks/github', {
      token: null,
      rawBody,
      headers: {
        'content-type': 'application/json',
        'x-github-event': event,
        'x-github-delivery': `door-${process.pid}-${++deliveries}`,
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(rawBody).digest('hex')}`,
      },
    });
  }

  const refusals = async (): Promise<number> => {
    const ready = await app.request<{ checks: Array<{ name: string; details?: Record<string, number> }> }>(
      'GET',
      '/readyz',
      { token: null },
    );
    return (
      ready.body.checks.find((check) => check.name === 'refused input')?.details?.webhook_deliveries ?? 0
    );
  };

  it.each([
    [
      'pull_request',
      'a retyped number',
      delivery('pull_request', 'opened', (p) => (p.pull_request.number = 'abc')),
      '`pull_request.number` must be integer',
    ],
    [
      'pull_request',
      'no repository',
      delivery('pull_request', 'opened', (p) => delete p.repository),
      '`repository` is required',
    ],
    [
      'pull_request',
      'no pull request',
      delivery('pull_request', 'opened', (p) => delete p.pull_request),
      '`pull_request` is required',
    ],
    [
      'push',
      'no repository',
      delivery('push', undefined, (p) => delete p.repository),
      '`repository` is required',
    ],
    [
      'issue_comment',
      'a command without its author',
      delivery('issue_comment', 'created', (p) => {
        p.issue.pull_request = { url: 'https://api.github.com/repos/o/r/pulls/1' };
        p.comment.body = '@mergify queue';
        delete p.comment.user;
      }),
      '`comment.user` is required',
    ],
    [
      'check_run',
      'no check run',
      delivery('check_run', 'completed', (p) => delete p.check_run),
      '`check_run` is required',
    ],
    [
      'pull_request_review',
      'no review',
      delivery('pull_request_review', 'submitted', (p) => delete p.review),
      '`review` is required',
    ],
    [
      'installation_repositories',
      'a null full name',
      delivery('installation_repositories', 'added', (p) => (p.repositories_added[0].full_name = null)),
      '`repositories_added[0].full_name` must be string',
    ],
    [
      'pull_request',
      'labels as a string',
      delivery('pull_request', 'labeled', (p) => (p.pull_request.labels = 'bug')),
      '`pull_request.labels` must be array',
    ],
    [
      'pull_request',
      'a NUL in the title',
      delivery('pull_request', 'opened', (p) => (p.pull_request.title = 'a\u0000b')),
      '`pull_request.title` must not contain the NUL character',
    ],
    [
      'issue_comment',
      'a NUL in a command',
      delivery('issue_comment', 'created', (p) => {
        p.issue.pull_request = { url: 'https://api.github.com/repos/o/r/pulls/1' };
        p.comment.body = '@mergify queue urgent\u0000';
      }),
      '`comment.body` must not contain the NUL character',
    ],
    [
      'pull_request',
      'a NUL in the full name',
      delivery('pull_request', 'opened', (p) => (p.repository.full_name += '\u0000')),
      '`repository.full_name` must be `owner/name`',
    ],
    [
      'pull_request',
      'a lone surrogate in the title',
      delivery('pull_request', 'opened', (p) => (p.pull_request.title = 'x\uD800')),
      '`pull_request.title` must not contain a lone UTF-16 surrogate',
    ],
  ])(
    'refuses a %s delivery with %s: 400 naming the field, nothing recorded, counted',
    async (event, _, payload, detail) => {
      const [headBefore, refusedBefore] = [await store().headPosition(), await refusals()];
      const answer = await send(event, payload);
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toContain(detail);
      expect(await store().headPosition()).toBe(headBefore);
      expect(await refusals()).toBe(refusedBefore + 1);
    },
  );

  it('refuses an empty body with 400 (a signed one answered 401, "signature does not match")', async () => {
    const answer = await send('push', null, '');
    expect([answer.status, answer.body.detail]).toEqual([400, 'The delivery body is empty']);
  });

  it('keeps every processor running and reading the deliveries that follow', async () => {
    await send(
      'pull_request',
      delivery('pull_request', 'opened', (p) => (p.pull_request.number = 'abc')),
    );
    const good = delivery('pull_request', 'opened', (p) => (p.pull_request.number = 77));
    expect((await send('pull_request', good)).status).toBe(202);
    const host = app.running.projections!;
    expect(await host.waitFor(host.names, await store().headPosition(), 30_000)).toBe(true);
    expect((await app.request('GET', '/readyz', { token: null })).status).toBe(200);
    const snapshot = await app.running.app
      .get(PullRequestSnapshots)
      .find(good.repository.full_name.toLowerCase(), 77);
    expect(snapshot?.title).toBe(good.pull_request.title);
  });
});

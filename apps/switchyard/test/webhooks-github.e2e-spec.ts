import { scaledWait } from '@switchyard/testing';
import examples from '@octokit/webhooks-examples/api.github.com/index.json';
import { Webhooks } from '@octokit/webhooks';
import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import { gitHubFactEventTypes } from '@switchyard/code-host/facts';
import { factsOfDelivery } from '@switchyard/github/webhooks';
import { startTestApp, type TestApp } from './harness';

const SECRET = 'test-webhook-secret-0123456789';
const HANDLED = new Set([
  'pull_request',
  'pull_request_review',
  'check_run',
  'check_suite',
  'status',
  'issue_comment',
  'push',
  'installation',
  'installation_repositories',
]);

const sign = (secret: string, body: string) => new Webhooks({ secret }).sign(body);

interface Example {
  eventName: string;
  payload: Record<string, unknown>;
}

const allExamples: Example[] = (examples as { name: string; examples: Record<string, unknown>[] }[]).flatMap(
  (group) => group.examples.map((payload) => ({ eventName: group.name, payload })),
);

describe('POST /webhooks/github', () => {
  // A hundred-odd signed deliveries, each sent twice, on a shared and loaded machine.
  jest.setTimeout(180_000);
  let app: TestApp;
  let delivery = 0;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_GITHUB_WEBHOOK_SECRET: SECRET });
  }, 120_000);
  afterAll(() => app?.close());

  const store = () => app.running.storage.store;
  /** Facts stored under any of these delivery ids (the sandbox forge delivers facts of its own meanwhile). */
  async function storedUnder(deliveryIds: string[]) {
    const { events } = await store().readAll({
      after: 'start',
      limit: 100_000,
      filter: { eventTypes: gitHubFactEventTypes },
    });
    return events.filter((event) => deliveryIds.includes(String(event.metadata.deliveryId)));
  }

  async function deliver(
    eventName: string,
    payload: unknown,
    options: { deliveryId?: string; secret?: string; signature?: string | null } = {},
  ) {
    const body = JSON.stringify(payload);
    const deliveryId = options.deliveryId ?? `delivery-${process.pid}-${++delivery}`;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-github-event': eventName,
      'x-github-delivery': deliveryId,
    };
    const signature =
      options.signature === undefined ? await sign(options.secret ?? SECRET, body) : options.signature;
    if (signature !== null) headers['x-hub-signature-256'] = signature;
    const response = await app.request('POST', '/webhooks/github', { token: null, rawBody: body, headers });
    return { ...response, deliveryId, body: response.body as { status?: string; detail?: string } };
  }

  /** Events stored under one delivery id, on the stream its facts belong to. */
  async function recordedFor(eventName: string, payload: Record<string, unknown>, deliveryId: string) {
    const streamId = factsOfDelivery(eventName, payload)?.streamId;
    if (!streamId) return 0;
    const { events } = await store().readStream(streamId);
    return events.filter((event) => event.metadata.deliveryId === deliveryId).length;
  }

  it('records every handled example once, and a replayed delivery id records nothing new', async () => {
    const handled = allExamples.filter((example) => HANDLED.has(example.eventName));
    expect(handled.length).toBeGreaterThan(80);
    let recorded = 0;
    for (const example of handled) {
      const first = await deliver(example.eventName, example.payload);
      expect(first.status).toBe(202);
      expect(['recorded', 'ignored']).toContain(first.body.status);
      const stored = await recordedFor(example.eventName, example.payload, first.deliveryId);
      expect(stored).toBe(first.body.status === 'recorded' ? 1 : 0);
      if (stored) recorded += 1;

      const replay = await deliver(example.eventName, example.payload, { deliveryId: first.deliveryId });
      expect(replay.status).toBe(202);
      expect(replay.body.status).toBe(first.body.status === 'recorded' ? 'duplicate' : 'ignored');
      expect(await recordedFor(example.eventName, example.payload, first.deliveryId)).toBe(stored);
    }
    // Comments on plain issues are the only handled examples with nothing to record.
    expect(recorded).toBe(handled.filter((e) => e.eventName !== 'issue_comment').length);
  });

  it('answers 202 and records nothing for events it does not handle', async () => {
    const unhandled = allExamples.filter((example) => !HANDLED.has(example.eventName)).slice(0, 40);
    const deliveries: string[] = [];
    for (const example of unhandled) {
      const answer = await deliver(example.eventName, example.payload);
      expect([answer.status, answer.body.status]).toEqual([202, 'ignored']);
      deliveries.push(answer.deliveryId);
    }
    expect(await storedUnder(deliveries)).toEqual([]);
  });

  it('refuses a missing, malformed or wrongly keyed signature with 401 and records nothing', async () => {
    const opened = allExamples.find((e) => e.eventName === 'pull_request' && e.payload.action === 'opened')!;
    const deliveries = ['tampered'];
    for (const options of [{ signature: null }, { signature: 'sha256=00' }, { secret: 'another-secret' }]) {
      const answer = await deliver('pull_request', opened.payload, options);
      expect(answer.status).toBe(401);
      expect(answer.body.detail).toMatch(/signature/);
      deliveries.push(answer.deliveryId);
    }
    const body = JSON.stringify(opened.payload);
    const tampered = await app.request('POST', '/webhooks/github', {
      token: null,
      rawBody: body.replace('"opened"', '"closed"'),
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'pull_request',
        'x-github-delivery': 'tampered',
        'x-hub-signature-256': await sign(SECRET, body),
      },
    });
    expect(tampered.status).toBe(401);
    expect(tampered.body).toEqual({
      detail: 'The X-Hub-Signature-256 signature is missing or does not match',
    });
    expect(await storedUnder(deliveries)).toEqual([]);
  });

  it('keeps the pull request snapshot from webhook facts', async () => {
    const pick = (action: string) =>
      allExamples.find((e) => e.eventName === 'pull_request' && e.payload.action === action)!.payload;
    const opened = structuredClone(pick('opened')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    opened.repository.full_name = 'Snapshot-Owner/Webhooks';
    opened.repository.name = 'Webhooks';
    opened.repository.owner.login = 'Snapshot-Owner';
    opened.number = opened.pull_request.number = 4242;
    const labeled = structuredClone(opened);
    labeled.action = 'labeled';
    // A label as GitHub sends it: the door requires what GitHub's schema requires of one.
    const label = {
      id: 1,
      node_id: 'LA_1',
      url: '',
      name: 'ready-to-merge',
      color: 'ededed',
      default: false,
    };
    labeled.label = label;
    labeled.pull_request.labels = [label];
    labeled.pull_request.updated_at = '2026-03-02T10:01:00Z';

    await deliver('pull_request', opened);
    await deliver('pull_request', labeled);
    const head = await store().headPosition();
    expect(
      await app.running.projections!.waitFor(['code_host.pull_request_snapshots'], head, scaledWait(20_000)),
    ).toBe(true);
    const snapshot = await app.running.app.get(PullRequestSnapshots).find('snapshot-owner/webhooks', 4242);
    expect(snapshot).toMatchObject({
      number: 4242,
      title: opened.pull_request.title,
      author: opened.pull_request.user.login,
      state: 'open',
      labels: ['ready-to-merge'],
      head: { ref: opened.pull_request.head.ref, sha: opened.pull_request.head.sha },
      base: { ref: opened.pull_request.base.ref },
      repository: { fullName: 'Snapshot-Owner/Webhooks' },
    });
  });

  it('records a @mergifyio command on a pull request, and nothing for other comments', async () => {
    const created = allExamples.find(
      (e) => e.eventName === 'issue_comment' && e.payload.action === 'created',
    )!;
    const onPull = structuredClone(created.payload) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    onPull.issue.pull_request = { url: 'https://api.github.com/repos/x/y/pulls/1' };
    onPull.comment.body = 'Looks good, @mergifyio queue';
    const mention = await deliver('issue_comment', onPull);
    expect(mention.body.status).toBe('ignored');
    onPull.comment.body = '@Mergifyio queue urgent\nthanks';
    const command = await deliver('issue_comment', onPull);
    expect(command.body.status).toBe('recorded');
    expect(await recordedFor('issue_comment', onPull, command.deliveryId)).toBe(1);
    const { events } = await store().readAll({
      after: 'start',
      limit: 10_000,
      filter: { eventTypes: ['github.command_commented'] },
    });
    expect(events.at(-1)!.data).toMatchObject({
      command: 'queue',
      argument: 'urgent',
      commentId: onPull.comment.id,
    });
  });
});

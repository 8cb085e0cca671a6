import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

const CONFIGURATION = [
  'queue_rules:',
  '  - name: default',
  '    batch_size: 4',
  '    batch_max_wait_time: 5 s',
  'merge_queue:',
  '  max_parallel_checks: 3',
  '',
].join('\n');

const CULPRITS = new Set([6, 15]);

/**
 * The acceptance scenario of the merge queue, end to end over HTTP with the sandbox forge and its
 * CI, using only GitHub-shaped calls and `@mergify queue` comments: 20 pull requests, two of them
 * failing, batches of 4 with 3 checked at once; a pause and a freeze window on the way.
 */
describe('merge queue: bisection isolates the culprits (all-in-one app, sandbox forge)', () => {
  jest.setTimeout(900_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
  }, 120_000);
  afterAll(() => app?.close());

  it('merges the 18 good pull requests in order and dequeues exactly the 2 failing ones', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-bisection'));
    const v1 = `/v1/repos/${team.repository}`;
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', CONFIGURATION);
    const changes: { name: string; number: number; failing: boolean }[] = [];
    for (let index = 1; index <= 20; index++) {
      const name = `change-${String(index).padStart(2, '0')}`;
      const failing = CULPRITS.has(index);
      changes.push({ name, failing, number: await team.openChange(name, { failing }) });
    }
    for (const { number } of changes) await team.comment(number, '@mergify queue');
    const good = changes.filter((c) => !c.failing);
    const culprits = changes.filter((c) => c.failing);

    const events = () => team.queueEvents();
    const mergedCount = async () =>
      (await events()).filter((e) => e.type === 'merge_queue.pull_request_merged').length;

    // A pause in the middle: nothing merges while it holds.
    await team.until('a first merge', async () => (await mergedCount()) >= 1);
    expect(
      (await app.request('PUT', `${v1}/merge-queue/pause`, { body: { reason: 'release' } })).status,
    ).toBe(200);
    await team.until('the queue to see the pause', async () => (await team.queue()).paused);
    expect((await app.request('DELETE', `${v1}/merge-queue/pause`)).status).toBe(204);
    await team.until('the queue to see the end of the pause', async () => !(await team.queue()).paused);

    // A freeze window: the queued pull requests are held, then released.
    const freeze = await app.request('POST', `${v1}/scheduled_freeze`, {
      body: { reason: 'demo day', start: null, end: null, timezone: 'UTC', matching_conditions: [] },
    });
    expect(freeze.status).toBe(201);
    await team.until('the queue to see the freeze', async () =>
      Object.values((await team.queue()).pullRequests).some((pr) => pr.frozenSince !== null),
    );
    const ended = await app.request('POST', `${v1}/scheduled_freeze/${freeze.body.id}/delete`, {
      body: { delete_reason: 'demo over' },
    });
    expect(ended.status).toBe(204);

    await team.until(
      'every pull request to leave the queue',
      async () => {
        const left = (await events()).filter((e) => e.type === 'merge_queue.pull_request_left');
        return left.length === changes.length;
      },
      600_000,
    );

    const log = await events();
    const left = log.filter((e) => e.type === 'merge_queue.pull_request_left').map((e) => e.data);
    expect(left.filter((d) => !d.merged).map((d) => [d.pullRequest, d.dequeueCode])).toEqual(
      culprits.map((c) => [c.number, 'CHECKS_FAILED']),
    );
    const mergedOrder = log
      .filter((e) => e.type === 'merge_queue.pull_request_merged')
      .map((e) => e.data.pullRequest);
    expect(mergedOrder).toEqual(good.map((c) => c.number));
    expect(log.some((e) => e.type === 'merge_queue.batch_bisection_started')).toBe(true);
    expect(
      log.filter((e) => e.type === 'merge_queue.batch_bisection_ended').some((e) => e.data.culpritFound),
    ).toBe(true);

    // Nothing merges while paused or frozen, but the one merge call already sent when the hold began.
    let holding = false;
    let mergedWhileHolding = 0;
    for (const event of log) {
      const wasHolding = holding;
      if (event.type === 'merge_queue.pause_observed') holding = event.data.paused as boolean;
      if (event.type === 'merge_queue.freeze_observed')
        holding = (event.data.frozenPullRequests as number[]).length > 0;
      if (holding && !wasHolding) mergedWhileHolding = 0;
      if (event.type === 'merge_queue.pull_request_merged' && holding) mergedWhileHolding += 1;
      expect(mergedWhileHolding).toBeLessThanOrEqual(1);
    }
    expect(log.some((e) => e.type === 'merge_queue.freeze_observed')).toBe(true);

    // main holds the 18 changes and neither culprit; the pull requests say so too.
    for (const change of changes)
      expect(await team.onMain(`changes/${change.name}.txt`)).toBe(!change.failing);
    for (const change of good) expect((await team.pull(change.number)).merged).toBe(true);
    for (const change of culprits) {
      // The label follows the leave event; the effects reactor may still be on its way there.
      await team.until(`the dequeued label on #${change.number}`, async () =>
        (await team.pull(change.number)).labels.includes('dequeued'),
      );
      expect(await team.pull(change.number)).toMatchObject({ merged: false, state: 'open' });
    }

    // The activity log tells the story: how many records of each kind. The engine keeps real
    // time while the test app's own clock (pause, freeze) stands still, hence two windows.
    const realTime = `received_from=${new Date(Date.now() - 3_600_000).toISOString()}&received_to=${new Date(Date.now() + 3_600_000).toISOString()}`;
    const counted = async (type: string) => {
      const window = type.startsWith('action.') ? `&${realTime}` : '';
      const page = await app.request('GET', `${v1}/logs/aggregate?event_type=${type}${window}`);
      if (page.status !== 200) throw new Error(`logs/aggregate: ${page.status} ${page.text}`);
      return page.body.total as number;
    };
    expect(await counted('action.queue.enter')).toBe(20);
    expect(await counted('action.queue.merged')).toBe(18);
    expect(await counted('action.queue.leave')).toBe(20);
    expect(await counted('action.queue.batch_bisection_start')).toBeGreaterThanOrEqual(1);
    expect(await counted('action.queue.batch_bisection_end')).toBeGreaterThanOrEqual(1);
    expect(await counted('action.queue.checks_start')).toBeGreaterThanOrEqual(5);
    expect(await counted('action.queue.checks_end')).toBeGreaterThanOrEqual(5);
    expect(await counted('queue.pause.create')).toBe(1);
    expect(await counted('scheduled_freeze.create')).toBe(1);
  });
});

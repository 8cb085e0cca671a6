import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

/**
 * A label-driven queue, as a new user writes it: a pull request rule queues whatever carries the
 * `ready` label. End to end over HTTP with the sandbox forge and its CI.
 */
const labelRule = (queueRules: string[] = []) =>
  [
    ...queueRules,
    'pull_request_rules:',
    '  - name: automatic queue',
    '    conditions:',
    '      - label=ready',
    '    actions:',
    '      queue:',
    '',
  ].join('\n');

type QueueEvent = Awaited<ReturnType<SandboxTeam['queueEvents']>>[number];
const about = (number: number, type: string) => (e: QueueEvent) =>
  e.type === `merge_queue.${type}` && e.data.pullRequest === number;

describe('merge queue driven by a label (all-in-one app, sandbox forge)', () => {
  jest.setTimeout(600_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
  }, 120_000);
  afterAll(() => app?.close());

  const label = async (team: SandboxTeam, number: number, name = 'ready') => {
    const added = await team.forge('POST', `/issues/${number}/labels`, { labels: [name] });
    if (added.status !== 200) throw new Error(`label #${number}: ${added.status} ${added.text}`);
  };

  /** The labels the service's read model shows: the webhook of each label change was recorded and projected. */
  const projectedLabels = async (team: SandboxTeam, number: number) =>
    (await new PullRequestSnapshots(app.running.storage.executor).find(team.repository, number))?.labels ??
    [];

  const statusComment = async (team: SandboxTeam, number: number) => {
    const { body } = await team.forge('GET', `/issues/${number}/comments`);
    return (body as { body: string }[])
      .map((c) => c.body)
      .find((b) => b.startsWith('<!-- switchyard:merge-queue-status'));
  };

  it('does not queue again a pull request that failed its checks until its head changes or someone asks', async () => {
    const team = new SandboxTeam(app, uniqueRepository('label-failing'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', labelRule());
    const number = await team.openChange('broken', { failing: true });
    await label(team, number);

    const count = async (type: string) => (await team.queueEvents()).filter(about(number, type)).length;
    await team.until(
      'the failing pull request to leave',
      async () => (await count('pull_request_left')) === 1,
    );
    // Leaving toggles the labels (queued off, dequeued on), whose webhooks come back to the intake:
    // once the read model shows them and every processor has read them, nothing may follow.
    await team.until('the labels of the leave to be read back', async () => {
      const labels = await projectedLabels(team, number);
      return labels.includes('dequeued') && !labels.includes('queued');
    });
    await team.until('the status comment to say it was dequeued', async () =>
      ((await statusComment(team, number)) ?? '').includes('❌ dequeued'),
    );
    const events = await team.queueEvents();
    expect(events.filter(about(number, 'pull_request_entered'))).toHaveLength(1);
    expect(events.find(about(number, 'pull_request_left'))?.data).toMatchObject({
      dequeueCode: 'CHECKS_FAILED',
    });
    expect((await team.pull(number)).labels.sort()).toEqual(['dequeued', 'ready']);
    expect(await statusComment(team, number)).toContain(
      '❌ dequeued from `default`: The merge conditions cannot be satisfied due to failing checks. A queue rule' +
        ' will not queue it again until its head changes',
    );

    // Someone thinks it was flaky: a command queues it again as it is (and fails again).
    await team.comment(number, '@mergify requeue');
    await team.until(
      'the requeued pull request to leave again',
      async () => (await count('pull_request_left')) === 2,
    );
    expect(await count('pull_request_entered')).toBe(2);
    expect((await team.queueEvents()).filter(about(number, 'pull_request_entered'))[1]!.data).toMatchObject({
      trigger: 'Command: requeue',
    });

    // A fix is pushed: the rule queues the new head by itself, and it merges.
    await team.commitFile('broken', 'changes/broken.txt', 'change broken, fixed\n');
    await team.until(
      'the fixed pull request to merge',
      async () => (await count('pull_request_merged')) === 1,
    );
    expect(await count('pull_request_entered')).toBe(3);
    await team.until('the labels of the merge', async () => {
      const labels = (await team.pull(number)).labels;
      return !labels.includes('queued') && !labels.includes('dequeued');
    });
    expect((await team.pull(number)).merged).toBe(true);
  });

  it('drains batches that wait for batch_max_wait_time, and queues a pull request labelled afterwards', async () => {
    const team = new SandboxTeam(app, uniqueRepository('label-batches'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile(
      'main',
      '.mergify.yml',
      labelRule([
        'queue_rules:',
        '  - name: default',
        '    batch_size: 3',
        '    batch_max_wait_time: 2 s',
        'merge_queue:',
        '  max_parallel_checks: 2',
      ]),
    );
    const failing = new Set([3, 6]);
    const changes: { number: number; failing: boolean }[] = [];
    for (let index = 1; index <= 8; index++)
      changes.push({
        number: await team.openChange(`change-${index}`, { failing: failing.has(index) }),
        failing: failing.has(index),
      });
    for (const { number } of changes) await label(team, number);

    const left = async () =>
      (await team.queueEvents()).filter((e) => e.type === 'merge_queue.pull_request_left').map((e) => e.data);
    await team.until(
      'every pull request to leave the queue',
      async () => {
        const gone = new Set((await left()).map((d) => d.pullRequest));
        return changes.every((c) => gone.has(c.number));
      },
      240_000,
    );
    // The failing ones left for good: once their labels are read back, nothing queues them again.
    for (const change of changes.filter((c) => c.failing))
      await team.until(`the labels of #${change.number} to be read back`, async () =>
        (await projectedLabels(team, change.number)).includes('dequeued'),
      );
    const events = await team.queueEvents();
    for (const change of changes) {
      expect(events.filter(about(change.number, 'pull_request_entered'))).toHaveLength(1);
      expect(events.filter(about(change.number, 'pull_request_left')).map((e) => e.data)).toEqual([
        expect.objectContaining(
          change.failing ? { merged: false, dequeueCode: 'CHECKS_FAILED' } : { merged: true },
        ),
      ]);
    }
    expect((await team.queue()).pullRequests).toEqual({});

    // A pull request labelled afterwards enters, waits batch_max_wait_time for company, and merges.
    const late = await team.openChange('late');
    await label(team, late);
    await team.until(
      'the late pull request to merge',
      async () => (await team.queueEvents()).some(about(late, 'pull_request_merged')),
      120_000,
    );
    const composed = (await team.queueEvents()).filter(
      (e) =>
        e.type === 'merge_queue.batch_composed' &&
        (e.data.pullRequests as { number: number }[]).some((pr) => pr.number === late),
    );
    expect(composed.map((e) => (e.data.pullRequests as { number: number }[]).map((pr) => pr.number))).toEqual(
      [[late]],
    );
  });
});

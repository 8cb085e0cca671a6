import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

/**
 * The merge queue end to end over HTTP: the all-in-one app in sandbox mode, a team using only
 * GitHub-shaped calls and `@mergify queue` comments, the sandbox CI judging every draft.
 */
/** Opens a change per name, queues each with a comment, and waits until the queue merged all of them, in that order. */
async function queueUntilMerged(team: SandboxTeam, names: readonly string[]): Promise<number[]> {
  const numbers: number[] = [];
  for (const name of names) numbers.push(await team.openChange(name));
  for (const number of numbers) await team.comment(number, '@mergify queue');
  const merged = async () =>
    (await team.queueEvents())
      .filter((e) => e.type === 'merge_queue.pull_request_merged')
      .map((e) => e.data.pullRequest);
  await team.until('every pull request merged', async () => (await merged()).length === numbers.length);
  expect(await merged()).toEqual(numbers);
  return numbers;
}

describe('merge queue through the sandbox forge (all-in-one app)', () => {
  jest.setTimeout(300_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
  }, 120_000);
  afterAll(() => app?.close());

  it('merges three queued pull requests one at a time, in order', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-serial'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
    const numbers = await queueUntilMerged(team, ['one', 'two', 'three']);
    for (const number of numbers) expect((await team.pull(number)).merged).toBe(true);
    for (const name of ['one', 'two', 'three']) expect(await team.onMain(`changes/${name}.txt`)).toBe(true);
    expect(Object.keys((await team.queue()).pullRequests)).toEqual([]);
    // status_comments defaults to all: the queue keeps one comment on each pull request, edited as
    // its state moves (the status-comments reactor writes as it reads the queue's events, possibly
    // after the merges): the current state first, what it said before beneath.
    for (const number of numbers) {
      const status = async () => {
        const { body } = await team.forge('GET', `/issues/${number}/comments`);
        return (body as { body: string }[])
          .map((c) => c.body)
          .filter((b) => b.startsWith('<!-- switchyard:merge-queue-status'));
      };
      await team.until(`the status comment of #${number}`, async () =>
        (await status()).some((body) => body.includes('**Merge queue**: ✅ merged into `main`')),
      );
      const [only, ...more] = await status();
      expect(more).toEqual([]);
      expect(only!.split('\n').slice(1)).toEqual([
        '**Merge queue**: ✅ merged into `main` by the queue `default`.',
        '',
        'Earlier:',
        expect.stringMatching(/^- 🔄 checks started on draft #\d+\.$/),
        '- 🟠 queued in `default` (Command: queue).',
      ]);
    }
  });

  it('checks in place with one check at a time, and merges a pull request whose CI passed before it was queued', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-in-place'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile(
      'main',
      '.mergify.yml',
      'queue_rules:\n  - name: default\n    batch_size: 1\nmerge_queue:\n  max_parallel_checks: 1\n',
    );
    const first = await team.openChange('first');
    const second = await team.openChange('second');
    // Both are up to date with main and green before anyone queues them: the first is checked
    // in place on that verdict; the second falls behind once the first merges and is updated.
    for (const number of [first, second]) {
      await team.until(`CI on #${number}`, async () => (await team.checksOf(number)).includes('success'));
      await team.comment(number, '@mergify queue');
    }

    const events = async () => team.queueEvents();
    await team.until(
      'both merged',
      async () => (await events()).filter((e) => e.type === 'merge_queue.pull_request_merged').length === 2,
    );
    const started = (await events()).filter((e) => e.type === 'merge_queue.checks_started');
    expect(started.map((e) => e.data.speculativeCheck)).toEqual([
      expect.objectContaining({ number: first, inPlace: true }),
      expect.objectContaining({ number: second, inPlace: true }),
    ]);
    for (const number of [first, second]) expect((await team.pull(number)).merged).toBe(true);
  });

  it('starts a batch that is not full once batch_max_wait_time has passed, with nothing else happening', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-batch-wait'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile(
      'main',
      '.mergify.yml',
      'queue_rules:\n  - name: default\n    batch_size: 3\n    batch_max_wait_time: 2 s\n',
    );
    const lone = await team.openChange('lone');
    await team.comment(lone, '@mergify queue');
    // Only the queue's timer can start it: no other pull request comes to fill the batch.
    await team.until('the lone pull request merged', async () => (await team.pull(lone)).merged);
    const started = (await team.queueEvents()).filter((e) => e.type === 'merge_queue.checks_started');
    expect(started).toHaveLength(1);
  });

  it('with merge_method fast-forward and checks in place, moves main to each checked head: no merge commit', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-fast-forward-in-place'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile(
      'main',
      '.mergify.yml',
      'queue_rules:\n  - name: default\n    merge_method: fast-forward\nmerge_queue:\n  max_parallel_checks: 1\n',
    );
    const numbers = await queueUntilMerged(team, ['alpha', 'beta']);
    const checked = (await team.queueEvents())
      .filter((e) => e.type === 'merge_queue.batch_preparing')
      .map((e) => e.data.checkMethod);
    expect(new Set(checked)).toEqual(new Set(['in_place']));
    const last = await team.forge('GET', `/pulls/${numbers.at(-1)}`);
    const main = await team.forge('GET', '/git/ref/heads/main');
    // main is the last pull request's head itself, and GitHub shows each merged.
    expect(main.body.object.sha).toBe(last.body.head.sha);
    for (const number of numbers) expect((await team.pull(number)).merged).toBe(true);
  });

  it.each(['merge-batch', 'fast-forward'])(
    'with merge_method %s merges each batch as one, and main holds every change',
    async (method) => {
      const team = new SandboxTeam(app, uniqueRepository(`queue-${method}`));
      await team.commitFile('main', 'README.md', '# widgets\n');
      await team.commitFile(
        'main',
        '.mergify.yml',
        `queue_rules:\n  - name: default\n    batch_size: 2\n    batch_max_wait_time: 1 s\n    merge_method: ${method}\n`,
      );
      const names = ['alpha', 'beta', 'gamma', 'delta'];
      const numbers = await queueUntilMerged(team, names);
      for (const name of names) expect(await team.onMain(`changes/${name}.txt`)).toBe(true);
      // GitHub shows a pull request merged once its head is reachable from the base.
      for (const number of numbers) expect((await team.pull(number)).merged).toBe(true);
      expect(Object.keys((await team.queue()).pullRequests)).toEqual([]);
    },
  );
});

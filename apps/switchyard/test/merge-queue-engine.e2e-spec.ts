import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

/**
 * The merge queue end to end over HTTP: the all-in-one app in sandbox mode, a team using only
 * GitHub-shaped calls and `@mergify queue` comments, the sandbox CI judging every draft.
 */
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
    const numbers: number[] = [];
    for (const name of ['one', 'two', 'three']) numbers.push(await team.openChange(name));
    for (const number of numbers) await team.comment(number, '@mergify queue');

    const merged = async () =>
      (await team.queueEvents())
        .filter((e) => e.type === 'merge_queue.pull_request_merged')
        .map((e) => e.data.pullRequest);
    await team.until('every pull request merged', async () => (await merged()).length === numbers.length);
    expect(await merged()).toEqual(numbers);
    for (const number of numbers) expect((await team.pull(number)).merged).toBe(true);
    for (const name of ['one', 'two', 'three']) expect(await team.onMain(`changes/${name}.txt`)).toBe(true);
    expect(Object.keys((await team.queue()).pullRequests)).toEqual([]);
  });
});

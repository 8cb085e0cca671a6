import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

const queueBranches = async (team: SandboxTeam): Promise<string[]> => {
  const { status, body } = await team.forge<{ name: string }[]>('GET', '/branches?per_page=100');
  if (status !== 200) throw new Error(`branches: ${status}`);
  return body.map((branch) => branch.name).filter((name) => name.startsWith('mergify/merge-queue/'));
};

/**
 * What the merge-queue engine does on the code host, end to end over HTTP with the sandbox forge:
 * semantic conflicts its CI can express, the branches it leaves (none), and what the status shows
 * of a batch once it merged.
 */
describe('merge queue effects through the sandbox forge (all-in-one app)', () => {
  jest.setTimeout(600_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '1' });
  }, 120_000);
  afterAll(() => app?.close());

  it('two pull requests that pass alone fail together in a batch; bisection drops the second, the rest merge', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-semantic'));
    // Each adds a file of its own: they merge cleanly, and only a tree holding both fails.
    const { cents, docs, euros } = await team.openSemanticConflict();
    for (const number of [cents, docs, euros])
      await team.until(`CI on #${number} alone`, async () =>
        (await team.checksOf(number)).includes('success'),
      );
    for (const number of [cents, euros]) expect(await team.checksOf(number)).toEqual(['success']);

    for (const number of [cents, docs, euros]) await team.comment(number, '@mergify queue');
    await team.until('every pull request to leave the queue', async () => (await team.leaves()).length === 3);

    expect(await team.leaves()).toEqual([
      [cents, 'PR_MERGED'],
      [docs, 'PR_MERGED'],
      [euros, 'CHECKS_FAILED'],
    ]);
    const events = await team.queueEvents();
    const checked = events
      .filter((e) => e.type === 'merge_queue.checks_started')
      .map((e) => (e.data.pullRequests as { number: number }[]).map((pr) => pr.number));
    expect(checked[0]).toEqual([cents, docs, euros]);
    const ended = events.find((e) => e.type === 'merge_queue.batch_bisection_ended');
    expect(ended?.data).toMatchObject({ culpritFound: true, culpritPullRequests: [euros] });
    expect(await team.onMain('ledger/amounts.txt')).toBe(true);
    expect(await team.onMain('docs/ledger.md')).toBe(true);
    expect(await team.onMain('ledger/report.txt')).toBe(false);

    // The last batch that merged is still shown, with what it showed while it ran.
    const status = await app.request('GET', `/v1/repos/${team.repository}/merge-queue/status?branch=main`);
    expect(status.status).toBe(200);
    const [merged] = status.body.batches as {
      status: { code: string };
      checks_summary: { passed: number; total: number };
      pull_requests: { number: number; title: string; author: { id: number; login: string } }[];
    }[];
    expect(merged?.status.code).toBe('merged');
    expect(merged?.pull_requests.map((pr) => [pr.number, pr.title])).toEqual([[docs, 'Add docs']]);
    expect(merged?.pull_requests[0]?.author.login).not.toBe('');
    expect(merged?.pull_requests[0]?.author.id).toBeGreaterThan(0);
    expect(merged?.checks_summary.total).toBeGreaterThan(0);
    expect(merged?.checks_summary.passed).toBe(merged?.checks_summary.total);
    await team.until('every queue branch deleted', async () => (await queueBranches(team)).length === 0);
  });

  it('a pull request that conflicts with the one ahead leaves with CONFLICT_WITH_PULL_AHEAD, and no queue branch is left', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-conflict-ahead'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', 'merge_queue:\n  max_parallel_checks: 2\n');
    // Both add the same file with other contents: the second does not merge on top of the first,
    // whose checks take long enough for the second to be checked on top of them.
    const first = await team.openPullRequest(
      'colour-blue',
      'settings/colour.txt',
      'blue\n# sandbox-ci: seconds 15\n',
    );
    const second = await team.openPullRequest('colour-red', 'settings/colour.txt', 'red\n');
    await team.comment(first, '@mergify queue');
    await team.until('the first checked', async () =>
      (await team.queueEvents()).some((e) => e.type === 'merge_queue.checks_started'),
    );
    await team.comment(second, '@mergify queue');
    await team.until('both to leave the queue', async () => (await team.leaves()).length === 2);
    expect(await team.leaves()).toEqual([
      [first, 'PR_MERGED'],
      [second, 'CONFLICT_WITH_PULL_AHEAD'],
    ]);
    const events = await team.queueEvents();
    expect(events.some((e) => e.type === 'merge_queue.conflict_deferred')).toBe(true);
    await team.until(
      'every queue branch deleted',
      async () => (await queueBranches(team)).length === 0,
      60_000,
    );
  });

  it('a freeze window that opens while a batch is checked: its merge lands after the window, not inside it', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-freeze-window'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', 'merge_queue:\n  max_parallel_checks: 2\n');
    const number = await team.openPullRequest('slow', 'slow.txt', 'slow\n# sandbox-ci: seconds 6\n');
    await team.comment(number, '@mergify queue');
    await team.until('the checks to start', async () =>
      (await team.queueEvents()).some((e) => e.type === 'merge_queue.checks_started'),
    );
    const started = (await team.queueEvents()).find((e) => e.type === 'merge_queue.checks_started')!;
    // The window opens on the whole second before the draft's CI ends (the engine keeps real time):
    // the batch passes in the window's first second, before a once-a-second look would see it.
    const ciEnds = Date.parse(started.data.occurredAt as string) + 6_000;
    const opens = Math.floor(ciEnds / 1000) * 1000;
    const closes = opens + 15_000;
    const naive = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    const freeze = await app.request('POST', `/v1/repos/${team.repository}/scheduled_freeze`, {
      body: {
        reason: 'release',
        start: naive(opens),
        end: naive(closes),
        timezone: 'UTC',
        matching_conditions: [],
      },
    });
    expect(freeze.status).toBe(201);
    await team.until('the pull request to merge', async () => (await team.leaves()).length === 1, 120_000);
    expect(await team.leaves()).toEqual([[number, 'PR_MERGED']]);
    const merged = (await team.queueEvents()).find((e) => e.type === 'merge_queue.pull_request_merged')!;
    const mergedAt = Date.parse(merged.data.occurredAt as string);
    const { body: pull } = await team.forge('GET', `/pulls/${number}`);
    for (const at of [mergedAt, Date.parse(pull.merged_at as string)])
      expect({ at: new Date(at).toISOString(), inWindow: at >= opens && at < closes }).toEqual({
        at: new Date(at).toISOString(),
        inWindow: false,
      });
    expect((await team.queueEvents()).some((e) => e.type === 'merge_queue.freeze_observed')).toBe(true);
  });
});

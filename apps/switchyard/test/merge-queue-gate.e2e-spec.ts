import { comparePositions } from '@switchyard/event-store';
import { mergeQueueStreamId } from '@switchyard/merge-queue';
import { eventually, scaledWait } from '@switchyard/testing';
import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What holds a merge back and what lets it go, end to end over HTTP with the sandbox forge: an
 * acknowledged pause fences every merge, a held merge goes as soon as the hold ends, and a
 * fast-forward batch never lands a tree built on a base that another queue's merge moved.
 */
describe('merge queue gate through the sandbox forge (all-in-one app)', () => {
  jest.setTimeout(600_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      SWITCHYARD_SANDBOX_CI_SECONDS: '1',
      // The pause's 200 waits for the engine to pass it, which on a loaded machine may be busy with
      // a merge for longer than the default 5 s (it then answers 202, as it should): this case is
      // about what a 200 promises, so it gives the engine the time the machine needs.
      SWITCHYARD_READ_YOUR_WRITES_TIMEOUT_MS: String(scaledWait(30_000)),
    });
  }, 120_000);
  afterAll(() => app?.close());

  it('a pause acknowledged while a merge is under way: nothing merges after the 200 until the unpause', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-pause-fence'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile('main', '.mergify.yml', 'merge_queue:\n  max_parallel_checks: 2\n');
    const first = await team.openPullRequest('first', 'first.txt', 'first\n# sandbox-ci: seconds 3\n');
    const second = await team.openPullRequest('second', 'second.txt', 'second\n# sandbox-ci: seconds 3\n');
    const telemetry = app.running.mergeQueue!.telemetry;
    const merges = () => telemetry.calls.filter((call) => call.operation === 'mergePullRequest').length;
    const before = merges();
    await team.comment(first, '@mergify queue');
    await team.comment(second, '@mergify queue');

    // The moment the engine starts the first merge (past the merge gate), the queue is paused.
    // A tight look (the merge call takes milliseconds), bounded like every other wait here.
    await eventually('the first merge to start', async () => merges() > before, {
      timeoutMs: 300_000,
      intervalMs: 1,
    });
    const paused = await app.request('PUT', `/v1/repos/${team.repository}/merge-queue/pause`, {
      body: { reason: 'incident' },
    });
    expect(paused.status).toBe(200);
    const acknowledged = await app.running.storage.store.headPosition();
    const mergedWhenAcknowledged = [(await team.pull(first)).merged, (await team.pull(second)).merged];

    // Everything the engine does about what it has read settles; then nothing merged since the 200.
    await team.until('the engine to settle on the pause', async () =>
      (await team.queueEvents()).some((e) => e.type === 'merge_queue.pause_observed' && e.data.paused),
    );
    // Time for a merge call already sent to land and be recorded, then the engine catches up. A
    // fixed wait on purpose: what it gives time to is a merge that must not happen.
    await sleep(3_000);
    const head = await app.running.storage.store.headPosition();
    expect(
      await app.running.projections!.waitFor(
        ['merge_queue.effects', 'merge_queue.intake'],
        head,
        scaledWait(30_000),
      ),
    ).toBe(true);
    expect([(await team.pull(first)).merged, (await team.pull(second)).merged]).toEqual(
      mergedWhenAcknowledged,
    );
    const { events } = await app.running.storage.store.readStream(
      mergeQueueStreamId(team.repository, 'main'),
    );
    const mergedAfter = events.filter(
      (e) =>
        e.type === 'merge_queue.pull_request_merged' &&
        (acknowledged === null || comparePositions(e.position, acknowledged) > 0),
    );
    expect(mergedAfter.map((e) => (e.data as { pullRequest: number }).pullRequest)).toEqual([]);

    const unpaused = await app.request('DELETE', `/v1/repos/${team.repository}/merge-queue/pause`);
    expect(unpaused.status).toBe(204);
    await team.until('both to merge', async () => (await team.leaves()).length === 2, 120_000);
    expect(await team.leaves()).toEqual([
      [first, 'PR_MERGED'],
      [second, 'PR_MERGED'],
    ]);
  });

  it('a merge held by a pause goes through on the unpause alone, with nothing else happening', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-pause-release'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    // One checks slot and batches of one: checks run in place, and a pause does not stop them.
    await team.commitFile('main', '.mergify.yml', 'merge_queue:\n  max_parallel_checks: 1\n');
    const number = await team.openPullRequest('held', 'held.txt', 'held\n# sandbox-ci: seconds 3\n');
    await team.comment(number, '@mergify queue');
    await team.until('the checks to start', async () =>
      (await team.queueEvents()).some((e) => e.type === 'merge_queue.checks_started'),
    );
    const paused = await app.request('PUT', `/v1/repos/${team.repository}/merge-queue/pause`, {
      body: { reason: 'release' },
    });
    expect(paused.status).toBe(200);
    await team.until('the checks to pass', async () =>
      (await team.queueEvents()).some((e) => e.type === 'merge_queue.batch_passed'),
    );
    // A fixed wait on purpose: the time a held merge would take to go through, and it must not.
    await sleep(3_000);
    expect((await team.pull(number)).merged).toBe(false);
    expect(await team.leaves()).toEqual([]);

    const unpaused = await app.request('DELETE', `/v1/repos/${team.repository}/merge-queue/pause`);
    expect(unpaused.status).toBe(204);
    await team.until('the pull request to merge', async () => (await team.leaves()).length === 1, 60_000);
    expect(await team.leaves()).toEqual([[number, 'PR_MERGED']]);
    expect((await team.pull(number)).merged).toBe(true);
  });

  it('a fast-forward batch checked behind another queue’s merge is checked again on the new base, then fast-forwards', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-fast-forward'));
    await team.commitFile('main', 'README.md', '# widgets\n');
    await team.commitFile(
      'main',
      '.mergify.yml',
      [
        'queue_rules:',
        '  - name: hotfix',
        '    merge_method: merge',
        '  - name: default',
        '    merge_method: fast-forward',
        'merge_queue:',
        '  max_parallel_checks: 2',
        '',
      ].join('\n'),
    );
    const hotfix = await team.openPullRequest('hotfix', 'hotfix.txt', 'hotfix\n# sandbox-ci: seconds 4\n');
    const feature = await team.openPullRequest('feature', 'feature.txt', 'feature\n');
    await team.comment(hotfix, '@mergify queue hotfix');
    await team.until('the hotfix checked', async () =>
      (await team.queueEvents()).some((e) => e.type === 'merge_queue.checks_started'),
    );
    await team.comment(feature, '@mergify queue default');
    await team.until('both to leave the queue', async () => (await team.leaves()).length === 2, 180_000);
    expect(await team.leaves()).toEqual([
      [hotfix, 'PR_MERGED'],
      [feature, 'PR_MERGED'],
    ]);
    expect(await team.onMain('hotfix.txt')).toBe(true);
    expect(await team.onMain('feature.txt')).toBe(true);
    // Checked once on top of the hotfix's draft, found behind the base the hotfix's merge made,
    // checked once more on that base: two runs, not a loop.
    const events = await team.queueEvents();
    const runsOfFeature = events.filter(
      (e) =>
        e.type === 'merge_queue.checks_started' &&
        (e.data.pullRequests as { number: number }[]).some((pr) => pr.number === feature),
    );
    expect(runsOfFeature).toHaveLength(2);
    expect(
      events
        .filter((e) => e.type === 'merge_queue.batch_dissolved')
        .map((e) => [e.data.returnedPullRequests, e.data.abortCode]),
    ).toEqual([[[feature], 'MERGE_QUEUE_RESET']]);
  });
});

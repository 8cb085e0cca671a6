import {
  ENGINE_REACTORS,
  EngineLayout,
  runEngine,
  runProjector,
  startHttpApp,
  type RunningHttpApp,
} from '@switchyard/runtime';
import { mergeQueueStreamId } from '@switchyard/merge-queue';
import { loadConfig } from '@switchyard/platform';
import { partitionName, readCheckpoint } from '@switchyard/projection';
import { eventually, testRedisUrl } from '@switchyard/testing';
import { forgeClient } from './deployment-processes';
import {
  createFreshPostgresDatabase,
  postgresAvailable,
  type FreshDatabase,
} from './fresh-postgres-database';
import { TEST_ACCOUNT, TEST_ADMIN_KEY } from './harness';
import { uniqueRepository } from './unique-repository';

const redisUrl = postgresAvailable() ? testRedisUrl() : null;
const describeMultiService = postgresAvailable() && redisUrl ? describe : describe.skip;

interface QueueEvent {
  type: string;
  data: { pullRequest?: number; pullRequests?: number[] };
}

/**
 * A deployment that ran its engine before partitions (no Redis: one engine, its reactors under
 * their own names) adds Redis: its engine's work is now split into partitions, each with its own
 * checkpoint. A partition's first start must take over where the unpartitioned reactor stopped,
 * so the history is not acted on twice (no second draft, merge, comment or command), and what
 * happened meanwhile is acted on once.
 */
describeMultiService('an engine upgraded to partitions (PostgreSQL, then Redis added)', () => {
  jest.setTimeout(600_000);
  let database: FreshDatabase;
  const running: Array<{ close(): Promise<void> }> = [];
  const stop = async () => {
    for (const process of running.splice(0).reverse()) await process.close();
  };
  afterAll(async () => {
    for (const process of running.splice(0).reverse()) await process.close().catch(() => undefined);
    await database?.drop();
  });

  it('takes over from the old checkpoints: nothing of the history twice, what came meanwhile once', async () => {
    database = await createFreshPostgresDatabase();
    const base = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      SWITCHYARD_ACCOUNT: TEST_ACCOUNT,
      SWITCHYARD_ADMIN_KEY: TEST_ADMIN_KEY,
      SWITCHYARD_SANDBOX_CI_SECONDS: '0',
      LOG_LEVEL: 'silent',
    };
    const deploy = async (env: Record<string, string>) => {
      const api = await startHttpApp(loadConfig(env), { role: 'api', announce: () => undefined });
      running.push(api);
      running.push(await runProjector(loadConfig(env)));
      const engine = await runEngine(loadConfig(env));
      running.push(engine);
      // As a load balancer would: the api takes requests once ready (the admin key is known only
      // once the projector has built the credentials; before, a loaded machine answered 401).
      await eventually('the api to be ready', async () => (await fetch(`${api.url}/readyz`)).status === 200, {
        intervalMs: 200,
      });
      return { api, engine };
    };
    const repository = uniqueRepository('partition-upgrade');
    const queueEvents = async (api: RunningHttpApp): Promise<QueueEvent[]> => {
      const { events } = await api.storage.store.readStream(mergeQueueStreamId(repository, 'main'));
      return events.map((event) => ({ type: event.type, data: event.data as QueueEvent['data'] }));
    };
    const mergedIn = (events: QueueEvent[]) =>
      events.filter((e) => e.type === 'merge_queue.pull_request_merged').map((e) => e.data.pullRequest);

    // Before: one engine without Redis, its reactors under the names they always had.
    const before = await deploy(base);
    let team = forgeClient(before.api.url, TEST_ADMIN_KEY, repository);
    await team.commit('main', 'README.md', '# widgets\n');
    await team.commit('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
    const first = await team.openChange('first');
    const second = await team.openChange('second');
    // Its CI fails: the queue lets it go, and it stays open. Its `@mergify queue` comment, acted on
    // again, would queue it again.
    const main = await team.forge('GET', '/git/ref/heads/main');
    await team.forge('POST', '/git/refs', { ref: 'refs/heads/failing', sha: main.object.sha });
    await team.commit('failing', 'changes/failing.txt', 'change failing\nsandbox-ci: fail\n');
    const failing = (
      await team.forge('POST', '/pulls', { title: 'Add failing', head: 'failing', base: 'main' })
    ).number as number;
    for (const number of [first, second, failing]) await team.queue(number);
    // The second and the failing one are checked on drafts on top of the first; two merge, the
    // failing one leaves the queue, and each gets its comment.
    const left = (events: QueueEvent[]) =>
      events.filter((e) => e.type === 'merge_queue.pull_request_left').map((e) => e.data.pullRequest);
    await eventually(
      'two merged and the failing one dequeued',
      async () => {
        const events = await queueEvents(before.api);
        return mergedIn(events).length === 2 && left(events).includes(failing);
      },
      { timeoutMs: 300_000 },
    );
    const statusComments = async (number: number): Promise<string[]> =>
      ((await team.forge('GET', `/issues/${number}/comments`)) as { body: string }[])
        .map((comment) => comment.body)
        .filter((body) => body.startsWith('<!-- switchyard:merge-queue-status'));
    const mergedComment = async (number: number) =>
      (await statusComments(number)).some((body) => body.includes('✅ merged'));
    for (const number of [first, second])
      await eventually(`the merged comment on #${number}`, () => mergedComment(number));
    await eventually('the status comment of the failing one', async () =>
      (await statusComments(failing)).some((body) => body.includes('❌ dequeued')),
    );
    const head = await before.api.storage.store.headPosition();
    expect(await before.engine.host.waitFor(ENGINE_REACTORS, head, 60_000)).toBe(true);
    // The engine stops; a third pull request is queued while none runs.
    running.splice(running.indexOf(before.engine), 1);
    await before.engine.close();
    const third = await team.openChange('third');
    await team.queue(third);

    const pullsBefore = (await team.forge('GET', '/pulls?state=all&per_page=100')) as {
      number: number;
      draft: boolean;
    }[];
    const comments = async () =>
      Promise.all(
        [first, second, failing].map(async (number) =>
          ((await team.forge('GET', `/issues/${number}/comments`)) as { body: string }[]).map((c) => c.body),
        ),
      );
    const commentsBefore = await comments();
    const historyBefore = await queueEvents(before.api);
    const oldCheckpoints = await Promise.all(
      ENGINE_REACTORS.map((name) => readCheckpoint(before.api.storage.executor, name)),
    );
    expect(oldCheckpoints.map((checkpoint) => checkpoint?.position ?? null)).not.toContain(null);
    await stop();

    // After: the same deployment with Redis, so its engine runs the partitions.
    const after = await deploy({ ...base, REDIS_URL: redisUrl! });
    team = forgeClient(after.api.url, TEST_ADMIN_KEY, repository);
    await eventually('the third merged', async () => mergedIn(await queueEvents(after.api)).includes(third), {
      timeoutMs: 300_000,
    });
    await eventually('the merged comment on the third', () => mergedComment(third));
    const layout = EngineLayout.of({ redisUrl });
    const partition = layout.partitionOfRepository(repository);
    const partitionNames = ENGINE_REACTORS.map((name) => partitionName(name, partition, layout.partitions));
    expect(
      await after.engine.host.waitFor(partitionNames, await after.api.storage.store.headPosition(), 60_000),
    ).toBe(true);

    // Nothing of the history was acted on again: no command on the pull requests of before…
    const history = await queueEvents(after.api);
    expect(history.slice(0, historyBefore.length)).toEqual(historyBefore);
    const sinceUpgrade = history.slice(historyBefore.length);
    const concerns = (event: QueueEvent, number: number) =>
      event.data.pullRequest === number || (event.data.pullRequests ?? []).includes(number);
    expect(sinceUpgrade.filter((e) => [first, second, failing].some((n) => concerns(e, n)))).toEqual([]);
    expect(mergedIn(history)).toEqual([first, second, third]);
    // …no second draft (only the third may have had one), no comment added or edited.
    const pullsAfter = (await team.forge('GET', '/pulls?state=all&per_page=100')) as {
      number: number;
      draft: boolean;
    }[];
    const known = new Set(pullsBefore.map((pull) => pull.number));
    expect(pullsAfter.filter((pull) => !known.has(pull.number) && pull.draft).length).toBeLessThanOrEqual(1);
    expect(await comments()).toEqual(commentsBefore);
    // What came while no engine ran was acted on, once: the third entered and merged once.
    expect(sinceUpgrade.filter((e) => e.type === 'merge_queue.pull_request_entered')).toHaveLength(1);
  });
});

import { EngineLayout, runEngine, runProjector, startHttpApp, type RunningEngine } from '@switchyard/runtime';
import { partitionName } from '@switchyard/projection';
import { mergeQueueStreamId } from '@switchyard/merge-queue';
import { loadConfig } from '@switchyard/platform';
import { eventually, testRedisUrl } from '@switchyard/testing';
import {
  createFreshPostgresDatabase,
  postgresAvailable,
  type FreshDatabase,
} from './fresh-postgres-database';
import { TEST_ACCOUNT, TEST_ADMIN_KEY } from './harness';
import { uniqueRepository } from './unique-repository';

const redisUrl = postgresAvailable() ? testRedisUrl() : null;
const describeMultiService = postgresAvailable() && redisUrl ? describe : describe.skip;

/**
 * A multi-service deployment: an api (with the sandbox forge and its CI), a projector and two
 * engines, sharing PostgreSQL and Redis. The engines' reactors are owned through Redis leases:
 * one engine drives the queue, and when it stops the other takes over.
 */
describeMultiService('the merge-queue engine process beside an api and a projector', () => {
  jest.setTimeout(300_000);
  let database: FreshDatabase;
  const running: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const process of running.splice(0).reverse()) await process.close().catch(() => undefined);
    await database?.drop();
  });

  it('one engine drives the queue at a time; when it stops, the other takes over and the queue goes on', async () => {
    database = await createFreshPostgresDatabase();
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl!,
      SWITCHYARD_ACCOUNT: TEST_ACCOUNT,
      SWITCHYARD_ADMIN_KEY: TEST_ADMIN_KEY,
      SWITCHYARD_SANDBOX_CI_SECONDS: '0',
      LOG_LEVEL: 'silent',
    };
    const api = await startHttpApp(loadConfig(env), { role: 'api', announce: () => undefined });
    running.push(api);
    // The projector and the engines find the api's sandbox forge where the api recorded it.
    const others = loadConfig(env);
    running.push(await runProjector(others));
    const engines: RunningEngine[] = [];
    for (let i = 0; i < 2; i++) {
      const engine = await runEngine(others);
      engines.push(engine);
      running.push(engine);
    }
    // As a load balancer would: the api takes requests once ready (the admin key is known only
    // once the projector has built the credentials).
    await eventually('the api to be ready', async () => (await fetch(`${api.url}/readyz`)).status === 200, {
      intervalMs: 200,
    });

    const repository = uniqueRepository('engine-process');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub shapes, read field by field
    const forge = async (method: string, path: string, body?: unknown): Promise<any> => {
      const response = await fetch(`${api.url}/sandbox/github/repos/${repository}${path}`, {
        method,
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status >= 400 && response.status !== 404)
        throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };
    const commit = async (branch: string, path: string, text: string) =>
      forge('PUT', `/contents/${path}`, {
        message: `edit ${path}`,
        content: Buffer.from(text).toString('base64'),
        branch,
      });
    const openChange = async (name: string): Promise<number> => {
      const main = await forge('GET', '/git/ref/heads/main');
      await forge('POST', '/git/refs', { ref: `refs/heads/${name}`, sha: main.object.sha });
      await commit(name, `changes/${name}.txt`, `change ${name}\n`);
      return (await forge('POST', '/pulls', { title: `Add ${name}`, head: name, base: 'main' })).number;
    };
    const merged = async () => {
      const { events } = await api.storage.store.readStream(mergeQueueStreamId(repository, 'main'));
      return events
        .filter((event) => event.type === 'merge_queue.pull_request_merged')
        .map((event) => (event.data as { pullRequest: number }).pullRequest);
    };
    // The effects reactor of the partition that holds this repository.
    const layout = EngineLayout.of({ redisUrl });
    const effects = partitionName(
      'merge_queue.effects',
      layout.partitionOfRepository(repository),
      layout.partitions,
    );
    const owner = (engine: RunningEngine) =>
      engine.host.status().find((status) => status.name === effects)!.state;

    await commit('main', 'README.md', '# widgets\n');
    await commit('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
    const first = await openChange('first');
    await forge('POST', `/issues/${first}/comments`, { body: '@mergify queue' });
    await eventually('the first pull request merged', async () => (await merged()).includes(first));
    expect((await forge('GET', `/pulls/${first}`)).merged).toBe(true);
    // One engine owns the effects reactor, the other waits for its lease.
    const states = engines.map(owner);
    expect(states.filter((state) => state === 'waiting-for-lock')).toHaveLength(1);
    const active = states.findIndex((state) => state !== 'waiting-for-lock');

    running.splice(running.indexOf(engines[active]!), 1);
    await engines[active]!.close();
    const successor = engines[1 - active]!;
    const second = await openChange('second');
    await forge('POST', `/issues/${second}/comments`, { body: '@mergify queue' });
    await eventually('the second pull request merged', async () => (await merged()).includes(second));
    expect((await forge('GET', `/pulls/${second}`)).merged).toBe(true);
    expect(owner(successor)).not.toBe('waiting-for-lock');
    expect(await merged()).toEqual([first, second]);
  });
});

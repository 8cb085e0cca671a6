import { EngineLayout, openSwitchyardStorage } from '@switchyard/runtime';
import { mergeQueueStreamId } from '@switchyard/merge-queue';
import { loadConfig, type Storage } from '@switchyard/platform';
import { partitionName } from '@switchyard/projection';
import { eventually, testRedisUrl } from '@switchyard/testing';
import {
  forgeClient,
  listeningUrl,
  spawnDeploymentProcess,
  type DeploymentProcess,
} from './deployment-processes';
import {
  createFreshPostgresDatabase,
  postgresAvailable,
  type FreshDatabase,
} from './fresh-postgres-database';
import { TEST_ACCOUNT, TEST_ADMIN_KEY } from './harness';
import { uniqueRepository } from './unique-repository';

const redisUrl = postgresAvailable() ? testRedisUrl() : null;
const describeSplit = postgresAvailable() && redisUrl ? describe : describe.skip;

interface Readiness {
  status?: string;
  detail?: string;
  checks: Array<{
    name: string;
    ok: boolean;
    details?: { processors: Array<{ name: string; state: string }> };
  }>;
}

/**
 * The deployment as docker-compose runs it: api, projector and engines as separate `node`
 * processes on one PostgreSQL and Redis, in sandbox mode, with no setting but the shared stores
 * (the engine and the projector find the forge where the api recorded it).
 */
describeSplit('a split deployment of separate processes (sandbox mode, PostgreSQL and Redis)', () => {
  jest.setTimeout(600_000);
  let database: FreshDatabase;
  let storage: Storage;
  const processes: DeploymentProcess[] = [];
  let env: Record<string, string>;
  beforeEach(async () => {
    database = await createFreshPostgresDatabase();
    storage = await openSwitchyardStorage(loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }));
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl!,
      SWITCHYARD_ACCOUNT: TEST_ACCOUNT,
      SWITCHYARD_ADMIN_KEY: TEST_ADMIN_KEY,
      SWITCHYARD_SANDBOX_CI_SECONDS: '1',
    };
  });
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((process) => process.kill()));
    await storage?.close();
    await database?.drop();
  });
  const start = (entry: DeploymentProcess['entry'], extra: Record<string, string> = {}) => {
    const started = spawnDeploymentProcess(entry, { ...env, ...extra });
    processes.push(started);
    return started;
  };
  const mergedEvents = async (repository: string) => {
    const { events } = await storage.store.readStream(mergeQueueStreamId(repository, 'main'));
    return events
      .filter((event) => event.type === 'merge_queue.pull_request_merged')
      .map((event) => (event.data as { pullRequest: number }).pullRequest);
  };
  /** The admin key is known once the projector has built the credentials read model. */
  const keyAccepted = (url: string) =>
    eventually('the admin key is accepted', async () => {
      const response = await fetch(`${url}/v1/application`, {
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      });
      return response.status === 200;
    });
  const readiness = async (url: string) => {
    const response = await fetch(`${url}/readyz`);
    return { status: response.status, body: (await response.json()) as Readiness };
  };

  it('merges a pull request through the forge, and /readyz reports every processor, then the one whose process died', async () => {
    const api = start('api', { PORT: '0', HOST: '127.0.0.1' });
    const url = await listeningUrl(api);
    const projector = start('projector');
    start('engine');
    await keyAccepted(url);

    const repository = uniqueRepository('split');
    const team = forgeClient(url, TEST_ADMIN_KEY, repository);
    await team.commit('main', 'README.md', '# widgets\n');
    await team.commit('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
    // The dashboard's live feed from the api process, which runs no projection: the projector's
    // checkpoints reach it through the checkpoint signal.
    const feed = await fetch(`${url}/ui/events/${repository}`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
    });
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const feedReader = feed.body!.getReader();
    let fed = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await feedReader.read();
        if (done) return;
        fed += new TextDecoder().decode(value);
      }
    })();
    const change = await team.openChange('first');
    await team.queue(change);
    await eventually('the pull request merged', async () =>
      (await mergedEvents(repository)).includes(change),
    );
    expect(await team.merged(change)).toBe(true);
    await eventually('the api pushed the queue status checkpoint', async () =>
      fed.includes('event: checkpoint'),
    );
    expect(fed).toMatch(/event: checkpoint\ndata: \{"position":"[^"]+"\}\n\n/);
    await feedReader.cancel();
    await reading.catch(() => undefined);

    // The api's pause answers 200 only once the engine process's effects have read past it.
    const paused = await fetch(`${url}/v1/repos/${repository}/merge-queue/pause`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'incident' }),
    });
    expect(paused.status).toBe(200);

    // Every processor of the deployment, wherever it runs, with a fresh heartbeat.
    const ready = await eventually('the deployment is ready', async () => {
      const answer = await readiness(url);
      return answer.status === 200 ? answer.body : null;
    });
    const reported = ready.checks.find((check) => check.name === 'processors')!.details!.processors;
    const names = reported.map((processor) => processor.name);
    const layout = EngineLayout.of({ redisUrl: redisUrl! });
    expect(names).toEqual(
      expect.arrayContaining([
        'code_host.pull_request_snapshots',
        'code_host.pull_request_reader',
        partitionName('merge_queue.intake', 0, layout.partitions),
        partitionName('merge_queue.effects', layout.partitions - 1, layout.partitions),
        partitionName('merge_queue.timer', 0, layout.partitions),
      ]),
    );
    expect(reported.every((processor) => processor.state === 'elsewhere')).toBe(true);

    // The projector dies: its processors' heartbeats go stale and the deployment is not ready.
    await projector.kill();
    const notReady = await eventually(
      'the api reports the dead projector',
      async () => {
        const answer = await readiness(url);
        return answer.status === 503 ? answer.body : null;
      },
      { timeoutMs: 120_000, intervalMs: 1000 },
    );
    expect(notReady.detail).toContain('code_host.pull_request_snapshots has no heartbeat');
  });

  it('two engines share the repositories; kill -9 of the owner in the middle of effects: the other takes over, nothing merged twice or lost', async () => {
    const api = start('api', { PORT: '0', HOST: '127.0.0.1' });
    const url = await listeningUrl(api);
    start('projector');
    const engines = [start('engine'), start('engine')];
    await keyAccepted(url);

    const repository = uniqueRepository('takeover');
    const partition = EngineLayout.of({ redisUrl: redisUrl! }).partitionOfRepository(repository);
    const effects = partitionName(
      'merge_queue.effects',
      partition,
      EngineLayout.of({ redisUrl: redisUrl! }).partitions,
    );
    const team = forgeClient(url, TEST_ADMIN_KEY, repository);
    await team.commit('main', 'README.md', '# widgets\n');
    await team.commit('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
    const changes: number[] = [];
    for (const name of ['one', 'two', 'three', 'four']) changes.push(await team.openChange(name));
    for (const change of changes) await team.queue(change);
    await eventually(
      'the first pull request merged',
      async () => (await mergedEvents(repository)).length >= 1,
    );

    // The engine whose effects reactor owns the repository's partition is killed mid-queue.
    const ownsEffects = (engine: DeploymentProcess) =>
      [...engine.lines]
        .reverse()
        .find(
          (read) =>
            read.line.processor === effects &&
            typeof read.line.msg === 'string' &&
            /owns its work|lost its ownership/.test(read.line.msg as string),
        )?.line.msg === 'processor owns its work here';
    const owner = engines.find(ownsEffects)!;
    expect(owner).toBeDefined();
    const successor = engines.find((engine) => engine !== owner)!;
    const seen = successor.lines.length;
    await owner.kill();
    await successor.line(
      (line) => line.processor === effects && line.msg === 'processor owns its work here',
      120_000,
      seen,
    );

    await eventually('every pull request merged', async () => {
      const merged = await mergedEvents(repository);
      return changes.every((change) => merged.includes(change));
    });
    // Once each (no pull request merged twice, none lost), on the queue and on the forge.
    expect((await mergedEvents(repository)).sort()).toEqual([...changes].sort());
    for (const change of changes) expect(await team.merged(change)).toBe(true);
  });
});

/**
 * How long the engines of a split deployment take to take a dead engine's repositories over:
 * api, projector and two engines as separate processes on PostgreSQL and Redis (DATABASE_URL,
 * REDIS_URL), in sandbox mode. Each round queues a pull request, kills the engine that owns its
 * repository's partition with SIGKILL, and measures the time from the kill until the other
 * engine owns the partition, and until the pull request is merged; then a new engine is started
 * in place of the dead one. The bound is the lease's ttl (10 s) plus a membership beat (a third
 * of it) plus one retry (1 s).
 */
import { randomBytes } from 'node:crypto';
import { EngineLayout } from '@switchyard/runtime';
import { partitionName } from '@switchyard/projection';
import { freshPostgresDatabase } from '@switchyard/testing';
import {
  forgeClient,
  listeningUrl,
  spawnDeploymentProcess,
  type DeploymentProcess,
} from '../apps/switchyard/test/deployment-processes';

const ROUNDS = Number(process.env.TAKEOVER_ROUNDS ?? 3);
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const OWNS = 'processor owns its work here';

async function until<T>(
  what: string,
  probe: () => Promise<T | null | false>,
  timeoutMs = 180_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) throw new Error('set DATABASE_URL and REDIS_URL');
  const database = await freshPostgresDatabase(databaseUrl, `sy_takeover_${randomBytes(6).toString('hex')}`);
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    SWITCHYARD_ACCOUNT: 'bench',
    SWITCHYARD_ADMIN_KEY: ADMIN_KEY,
    SWITCHYARD_SANDBOX_CI_SECONDS: '0',
  };
  const processes: DeploymentProcess[] = [];
  const start = (entry: DeploymentProcess['entry'], extra: Record<string, string> = {}) => {
    const started = spawnDeploymentProcess(entry, { ...env, ...extra });
    processes.push(started);
    return started;
  };
  try {
    const api = start('api', { PORT: '0', HOST: '127.0.0.1' });
    const url = await listeningUrl(api);
    start('projector');
    let engines = [start('engine'), start('engine')];
    await until('the admin key', async () => {
      const response = await fetch(`${url}/v1/application`, {
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
      });
      return response.status === 200;
    });
    const layout = EngineLayout.of({ redisUrl });
    const rows: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const repository = `bench/takeover-${round}-${randomBytes(3).toString('hex')}`;
      const effects = partitionName(
        'merge_queue.effects',
        layout.partitionOfRepository(repository),
        layout.partitions,
      );
      const team = forgeClient(url, ADMIN_KEY, repository);
      await team.commit('main', 'README.md', '# bench\n');
      await team.commit('main', '.mergify.yml', 'queue_rules:\n  - name: default\n    batch_size: 1\n');
      const warmUp = await team.openChange('warm-up');
      await team.queue(warmUp);
      await until('the warm-up merge', () => team.merged(warmUp));
      const owns = (engine: DeploymentProcess) =>
        [...engine.lines]
          .reverse()
          .find(
            (read) =>
              read.line.processor === effects &&
              /owns its work|lost its ownership/.test(String(read.line.msg)),
          )?.line.msg === OWNS;
      const owner = await until('the owner of the partition', async () => engines.find(owns) ?? null);
      const successor = engines.find((engine) => engine !== owner)!;
      const change = await team.openChange('after-kill');
      const seen = successor.lines.length;
      const killedAt = Date.now();
      await owner.kill();
      await team.queue(change);
      const taken = await successor.line(
        (line) => line.processor === effects && line.msg === OWNS,
        120_000,
        seen,
      );
      await until('the merge after the kill', () => team.merged(change));
      const mergedAt = Date.now();
      rows.push(
        `round ${round}: partition taken over after ${((taken.at - killedAt) / 1000).toFixed(1)} s, ` +
          `pull request merged ${((mergedAt - killedAt) / 1000).toFixed(1)} s after the kill`,
      );
      process.stdout.write(`${rows.at(-1)}\n`);
      engines = [successor, start('engine')];
    }
    process.stdout.write(
      `\ntakeover (lease ttl 10 s, membership beat 3.3 s, retry 1 s):\n${rows.join('\n')}\n`,
    );
  } finally {
    await Promise.all(processes.map((process) => process.kill()));
    await database.drop();
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`takeover bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

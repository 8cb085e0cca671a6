import { openSwitchyardStorage } from '@switchyard/runtime';
import { loadConfig } from '@switchyard/platform';
import { eventually, freshPostgresDatabase } from '@switchyard/testing';
import { randomBytes } from 'node:crypto';
import { listeningUrl, spawnDeploymentProcess, type DeploymentProcess } from '../deployment-processes';
import { startTestApp, TEST_ACCOUNT, TEST_ADMIN_KEY } from '../harness';
import type { SoakTarget } from './run-scenario';

/** CI runs take a second unless a change says otherwise: the soak is about the queue, not waiting. */
export const SOAK_CI_SECONDS = 1;

export interface OpenTarget extends SoakTarget {
  close(): Promise<void>;
}

/** The all-in-one app on the embedded store (PGlite in memory), as `startTestApp` runs it. */
export async function allInOneTarget(): Promise<OpenTarget> {
  const app = await startTestApp({
    SWITCHYARD_SANDBOX_CI_SECONDS: String(SOAK_CI_SECONDS),
    ...(process.env.SOAK_LOG_LEVEL ? { LOG_LEVEL: process.env.SOAK_LOG_LEVEL } : {}),
  });
  return {
    name: 'all-in-one',
    baseUrl: app.baseUrl,
    adminKey: app.adminKey,
    store: app.running.storage.store,
    ciSeconds: SOAK_CI_SECONDS,
    close: () => app.close(),
  };
}

/**
 * api, projector and two engines as separate processes on a fresh PostgreSQL database and Redis
 * (`DATABASE_URL`, `REDIS_URL`), in sandbox mode. `killEngine` kills one engine with SIGKILL and
 * starts another, so two keep sharing the repositories by lease.
 */
export async function splitTarget(databaseUrl: string, redisUrl: string): Promise<OpenTarget> {
  const database = await freshPostgresDatabase(databaseUrl, `sy_soak_${randomBytes(6).toString('hex')}`);
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    SWITCHYARD_ACCOUNT: TEST_ACCOUNT,
    SWITCHYARD_ADMIN_KEY: TEST_ADMIN_KEY,
    SWITCHYARD_SANDBOX_CI_SECONDS: String(SOAK_CI_SECONDS),
    LOG_LEVEL: 'warn',
  };
  const processes: DeploymentProcess[] = [];
  const start = (entry: DeploymentProcess['entry'], extra: Record<string, string> = {}) => {
    const started = spawnDeploymentProcess(entry, { ...env, ...extra });
    processes.push(started);
    return started;
  };
  const api = start('api', { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
  const baseUrl = await listeningUrl(api);
  start('projector');
  const engines = [start('engine'), start('engine')];
  const storage = await openSwitchyardStorage(
    loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }),
  );
  // The admin key works once the projector has built the credentials read model.
  await eventually(
    'the split deployment to accept the admin key',
    async () => {
      const answer = await fetch(`${baseUrl}/v1/application`, {
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      });
      return answer.status === 200;
    },
    { intervalMs: 500 },
  );
  let kills = 0;
  return {
    name: 'split',
    baseUrl,
    adminKey: TEST_ADMIN_KEY,
    store: storage.store,
    ciSeconds: SOAK_CI_SECONDS,
    async killEngine() {
      const victim = engines.splice(kills++ % engines.length, 1)[0]!;
      await victim.kill();
      engines.push(start('engine'));
    },
    async close() {
      await Promise.all(processes.map((process) => process.kill()));
      await storage.close();
      await database.drop();
    },
  };
}

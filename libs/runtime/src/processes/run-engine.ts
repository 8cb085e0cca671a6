import type { SwitchyardConfig } from '@switchyard/platform';
import type { ProcessorHost } from '@switchyard/projection';
import type { Logger } from 'pino';
import { openRuntime } from '../runtime/open-runtime';

export interface RunningEngine {
  /** The engine's reactors (merge-queue intake and effects). */
  host: ProcessorHost;
  logger: Logger;
  /** Settles once the engine has stopped (after close()). */
  following: Promise<void>;
  close(): Promise<void>;
}

/**
 * The merge-queue engine of a multi-service deployment: its reactors (intake and effects) and its
 * timer, reading the read models the projector builds. Each reactor has one owner across engines:
 * a Redis lease when REDIS_URL is set (another engine takes over within the lease's ttl when the
 * owner dies), a PostgreSQL advisory lock otherwise.
 */
export async function runEngine(config: SwitchyardConfig): Promise<RunningEngine> {
  const runtime = await openRuntime(config, { role: 'engine' });
  const { logger, storage } = runtime;
  const host = runtime.processors;
  if (!host) {
    await runtime.close();
    throw new Error('The engine role runs no processors');
  }
  logger.info(
    {
      storage: storage.description,
      reactors: host.names,
      ownership: config.redisUrl ? 'Redis lease' : 'advisory lock',
    },
    'engine running',
  );
  let stopped!: () => void;
  const following = new Promise<void>((resolve) => (stopped = resolve));
  return {
    host,
    logger,
    following,
    async close() {
      await runtime.close();
      stopped();
    },
  };
}

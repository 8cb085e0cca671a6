import type { SqlExecutor } from '@switchyard/sql';
import type { ProjectionLogger } from '../logger';
import type { CheckpointSignal } from './checkpoint-signal';
import { PgNotifyCheckpointSignal } from './pg-notify-checkpoint-signal';
import { RedisCheckpointSignal } from './redis-checkpoint-signal';

export interface OpenedCheckpointSignal {
  signal: CheckpointSignal;
  /** Closes the connections the signal opened for itself (none for NOTIFY). */
  close(): Promise<void>;
}

/**
 * The one choice of wake-up channel, shared by every process so that publishers and readers meet:
 * Redis when the deployment runs it, else NOTIFY on the read-model database.
 */
export function openCheckpointSignal(options: {
  executor: SqlExecutor;
  redisUrl: string | null;
  logger?: ProjectionLogger;
}): OpenedCheckpointSignal {
  if (options.redisUrl) {
    const redis = RedisCheckpointSignal.connect(options.redisUrl, options.logger);
    return { signal: redis, close: () => redis.close() };
  }
  return { signal: new PgNotifyCheckpointSignal(options.executor), close: async () => undefined };
}

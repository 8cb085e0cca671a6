import { openSwitchyardStorage, switchyardProjections } from '@switchyard/app';
import { createLogger } from '@switchyard/http';
import type { SwitchyardConfig } from '@switchyard/platform';
import { openCheckpointSignal, ProcessorHost } from '@switchyard/projection';

export interface RunningProjector {
  host: ProcessorHost;
  close(): Promise<void>;
}

/**
 * Runs every projection from its checkpoint (one active runner per projection across replicas,
 * by advisory lock) and announces each checkpoint so api processes answer read-your-writes.
 */
export async function runProjector(config: SwitchyardConfig): Promise<RunningProjector> {
  const logger = createLogger(config);
  const storage = await openSwitchyardStorage(config);
  const announcer = openCheckpointSignal({ executor: storage.executor, redisUrl: config.redisUrl, logger });
  let host: ProcessorHost;
  try {
    host = ProcessorHost.of(switchyardProjections(), {
      executor: storage.executor,
      store: storage.store,
      logger,
      publisher: announcer.signal,
    });
  } catch (error) {
    await announcer.close();
    await storage.close();
    throw error;
  }
  host.start();
  logger.info(
    { storage: storage.description, projections: host.runners.map((r) => r.name) },
    'projector running',
  );
  return {
    host,
    async close() {
      await host.stop();
      await announcer.close();
      await storage.close();
    },
  };
}

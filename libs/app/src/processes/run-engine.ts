import type { SwitchyardConfig } from '@switchyard/platform';
import { openRuntime } from '../runtime/open-runtime';

export interface RunningEngine {
  /** Settles when the engine stops following the feed: after close(), or on a failure. */
  following: Promise<void>;
  close(): Promise<void>;
}

/**
 * The merge-queue process manager's host. It owns no repository yet: the planner and the code-host
 * driver arrive with the merge-queue issue. Today it boots against the shared stores, follows the
 * event feed from its head (so a deployment can already run it and watch it stay healthy) and
 * shuts down cleanly.
 */
export async function runEngine(config: SwitchyardConfig): Promise<RunningEngine> {
  const runtime = await openRuntime(config, { role: 'engine' });
  const { logger, storage } = runtime;
  const controller = new AbortController();
  const head = await storage.store.headPosition().catch(async (error: unknown) => {
    await runtime.close();
    throw error;
  });
  logger.info({ storage: storage.description, from: head ?? 'start' }, 'engine following the event feed');
  const following = (async () => {
    let seen = 0;
    for await (const item of storage.store.subscribeToAll({
      after: head ?? 'start',
      signal: controller.signal,
    })) {
      if (item.kind === 'event') {
        seen += 1;
        logger.debug({ type: item.event.type, position: item.event.position, seen }, 'engine saw event');
      }
    }
  })();
  return {
    following,
    async close() {
      controller.abort();
      await following.catch(() => undefined);
      await runtime.close();
      logger.info('engine stopped');
    },
  };
}

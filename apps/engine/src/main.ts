import { loadConfigOrExit, openStorage } from '@switchyard/platform';
import { createLogger } from '@switchyard/http';

/**
 * The merge-queue process manager's host. It owns no repository yet: the planner and the code-host
 * driver arrive with the merge-queue issue. Today it boots against the shared stores, follows the
 * event feed from its head (so a deployment can already run it and watch it stay healthy) and
 * shuts down cleanly.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config);
  const storage = await openStorage(config);
  const controller = new AbortController();
  const shutdown = async () => {
    controller.abort();
    await storage.close();
    logger.info('engine stopped');
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  const head = (await storage.store.headPosition()) ?? 'start';
  logger.info({ storage: storage.description, from: head }, 'engine following the event feed');
  let seen = 0;
  for await (const item of storage.store.subscribeToAll({ after: head, signal: controller.signal })) {
    if (item.kind === 'event') {
      seen += 1;
      logger.debug({ type: item.event.type, position: item.event.position, seen }, 'engine saw event');
    }
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`engine failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

import { openSwitchyardStorage, switchyardProjections } from '@switchyard/app';
import { createAuthServices } from '@switchyard/auth';
import { CommandService } from '@switchyard/event-store';
import { createLogger } from '@switchyard/http';
import { systemClock } from '@switchyard/kernel';
import { loadConfigOrExit, type SwitchyardConfig } from '@switchyard/platform';
import { CheckpointFreshness, openCheckpointSignal, ProcessorHost } from '@switchyard/projection';
import type { AuthCliContext } from './commands/keys.command';
import type { RebuildCliContext } from './commands/rebuild.command';

/**
 * The CLI opens the same stores as the service. Its commands wait for the read models like the
 * HTTP endpoints do: it runs the projections itself when nobody else does (embedded store, or a
 * PostgreSQL deployment without a projector), and otherwise follows the checkpoints that the
 * running service's projections commit, woken by their announcements and re-reading the table
 * while it waits, so a command returns as soon as its event is applied.
 */
export async function openAuthCliContext(
  config: SwitchyardConfig = loadConfigOrExit(),
): Promise<AuthCliContext> {
  const logger = createLogger({ logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel });
  const storage = await openSwitchyardStorage(config);
  const wakeups = openCheckpointSignal({ executor: storage.executor, redisUrl: config.redisUrl, logger });
  const projections = switchyardProjections();
  const host = ProcessorHost.of(projections, {
    executor: storage.executor,
    store: storage.store,
    logger,
    publisher: wakeups.signal,
    lockRetryMs: 500,
  });
  host.start();
  const freshness = new CheckpointFreshness({
    executor: storage.executor,
    projections: projections.map((projection) => projection.name),
    signal: wakeups.signal,
    defaultTimeoutMs: Math.max(config.readYourWritesTimeoutMs, 30_000),
  });
  await freshness.start();
  const services = createAuthServices({
    store: storage.store,
    commands: new CommandService(storage.store),
    sql: storage.executor,
    freshness,
    clock: systemClock,
  });
  return {
    ...services,
    async close() {
      await freshness.close();
      await host.stop();
      await wakeups.close();
      await storage.close();
    },
  };
}

export async function openRebuildCliContext(): Promise<RebuildCliContext> {
  const config = loadConfigOrExit();
  const storage = await openSwitchyardStorage(config);
  return {
    executor: storage.executor,
    store: storage.store,
    projections: switchyardProjections(),
    close: () => storage.close(),
  };
}

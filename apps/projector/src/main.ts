import { Command } from 'commander';
import { SWITCHYARD_VERSION, switchyardProjections } from '@switchyard/app';
import { createLogger } from '@switchyard/http';
import { loadConfigOrExit, openStorage } from '@switchyard/platform';
import { PgNotifyCheckpointSignal, ProcessorHost, RedisCheckpointSignal } from '@switchyard/projection';
import { registerRebuildCommand } from '../../cli/src/commands/rebuild.command';
import { openRebuildCliContext } from '../../cli/src/open-cli-runtime';

/**
 * Runs every projection from its checkpoint (one active runner per projection across replicas,
 * by advisory lock) and announces each checkpoint so api processes answer read-your-writes.
 * `projector rebuild <name>` replays one projection from the start.
 */
async function run(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config);
  const storage = await openStorage(config);
  const redis = config.redisUrl ? RedisCheckpointSignal.connect(config.redisUrl, logger) : null;
  const host = ProcessorHost.of(switchyardProjections(), {
    executor: storage.executor,
    store: storage.store,
    logger,
    publisher: redis ?? new PgNotifyCheckpointSignal(storage.executor),
  });
  host.start();
  logger.info(
    { storage: storage.description, projections: host.runners.map((r) => r.name) },
    'projector running',
  );
  const stop = async () => {
    await host.stop();
    await redis?.close();
    await storage.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

const program = new Command('projector').description('Switchyard projector').version(SWITCHYARD_VERSION);
program.command('run', { isDefault: true }).description('run every projection (default)').action(run);
registerRebuildCommand(program, openRebuildCliContext);

void program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`projector: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

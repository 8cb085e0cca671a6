import { Command } from 'commander';
import {
  openRebuildCliContext,
  registerRebuildCommand,
  runProjector,
  stopOnSignals,
  SWITCHYARD_VERSION,
} from '@switchyard/runtime';
import { ConfigError, loadConfigOrExit } from '@switchyard/platform';

/** `projector` runs every projection; `projector rebuild <name>` rebuilds one beside the live one. */
async function run(): Promise<void> {
  const projector = await runProjector(loadConfigOrExit());
  stopOnSignals('projector', projector.logger, () => projector.close());
}

const program = new Command('projector').description('Switchyard projector').version(SWITCHYARD_VERSION);
program.command('run', { isDefault: true }).description('run every projection (default)').action(run);
registerRebuildCommand(program, () => openRebuildCliContext());

void program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`projector: ${error instanceof Error ? error.message : String(error)}\n`);
  // Configuration errors (a missing DATABASE_URL included) end with 2, as loadConfigOrExit does.
  process.exit(error instanceof ConfigError ? 2 : 1);
});

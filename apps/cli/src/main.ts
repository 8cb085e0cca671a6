import { Command } from 'commander';
import {
  openAuthCliContext,
  openParkedCliContext,
  openRebuildCliContext,
  registerParkedCommands,
  registerRebuildCommand,
  SWITCHYARD_VERSION,
} from '@switchyard/runtime';
import { registerKeyCommands } from './commands/keys.command';
import { registerSimulateCommand } from './commands/simulate.command';

/** `switchyard <command>`: operator tasks over the same stores and configuration as the service. */
const program = new Command('switchyard')
  .description('Switchyard operator commands (same environment variables as the service)')
  .version(SWITCHYARD_VERSION);

registerKeyCommands(program, () => openAuthCliContext());
registerRebuildCommand(program, () => openRebuildCliContext());
registerSimulateCommand(program);
registerParkedCommands(program, () => openParkedCliContext());

void program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`switchyard: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

import { createAuthServices, type AuthServices } from '@switchyard/auth';
import { CommandService } from '@switchyard/event-store/application';
import { createLogger } from '@switchyard/http';
import { systemClock } from '@switchyard/kernel';
import { loadConfigOrExit, type SwitchyardConfig } from '@switchyard/platform';
import type { ParkedCliContext } from '../cli/parked.command';
import type { RebuildCliContext } from '../cli/rebuild.command';
import { openRuntime } from '../runtime/open-runtime';

/** What the key and token commands work with; closed after each command. */
export interface AuthCliContext extends AuthServices {
  close(): Promise<void>;
}

/**
 * The CLI opens the same stores as the service. Its commands wait for the read models like the
 * HTTP endpoints do: it runs the projections itself when nobody else does (embedded store, or a
 * PostgreSQL deployment without a projector), never a reactor or a timer (a command must not act
 * on pull requests), and otherwise follows the checkpoints that the
 * running service's projections commit, woken by their announcements and re-reading the table
 * while it waits, so a command returns as soon as its event is applied.
 */
export async function openAuthCliContext(
  config: SwitchyardConfig = loadConfigOrExit(),
): Promise<AuthCliContext> {
  const logger = createLogger({
    logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel,
    logFormat: config.logFormat,
  });
  const runtime = await openRuntime(config, { role: 'cli', logger });
  const { storage, freshness } = runtime;
  if (!freshness) {
    await runtime.close();
    throw new Error('The cli role has no read-your-writes source');
  }
  const services = createAuthServices({
    store: storage.store,
    commands: new CommandService(storage.store),
    sql: storage.executor,
    freshness,
    clock: systemClock,
  });
  return { ...services, close: () => runtime.close() };
}

export async function openRebuildCliContext(
  config: SwitchyardConfig = loadConfigOrExit(),
): Promise<RebuildCliContext> {
  const runtime = await openRuntime(config, { role: 'rebuild' });
  return {
    executor: runtime.storage.executor,
    store: runtime.storage.store,
    projections: [...runtime.projections],
    close: () => runtime.close(),
  };
}

/** The deployment's stores, for the parked-event commands (which run no processor). */
export async function openParkedCliContext(
  config: SwitchyardConfig = loadConfigOrExit(),
): Promise<ParkedCliContext> {
  const runtime = await openRuntime(config, { role: 'rebuild' });
  return {
    executor: runtime.storage.executor,
    store: runtime.storage.store,
    close: () => runtime.close(),
  };
}

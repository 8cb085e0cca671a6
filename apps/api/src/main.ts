import { startHttpApp, stopOnSignals } from '@switchyard/runtime';
import { ConfigError, loadConfigOrExit } from '@switchyard/platform';

/**
 * The stateless HTTP process of a multi-service deployment: run as many as you like behind a load
 * balancer. Needs PostgreSQL (DATABASE_URL); read models are kept by the projector process.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const running = await startHttpApp(config, { role: 'api' });
  stopOnSignals('api', running.logger, () => running.close());
}

void main().catch((error: unknown) => {
  process.stderr.write(`api failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  // Configuration errors (a missing DATABASE_URL included) end with 2, as loadConfigOrExit does.
  process.exit(error instanceof ConfigError ? 2 : 1);
});

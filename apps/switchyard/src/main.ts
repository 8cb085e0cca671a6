import { startHttpApp, stopOnSignals } from '@switchyard/runtime';
import { ConfigError, loadConfigOrExit } from '@switchyard/platform';

/** The all-in-one process: api, projections and engine host over the embedded store by default. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const running = await startHttpApp(config, { role: 'all-in-one' });
  stopOnSignals('switchyard', running.logger, () => running.close());
}

void main().catch((error: unknown) => {
  process.stderr.write(
    `switchyard failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  // Configuration errors (a missing DATABASE_URL included) end with 2, as loadConfigOrExit does.
  process.exit(error instanceof ConfigError ? 2 : 1);
});

import { ConfigError, loadConfigOrExit } from '@switchyard/platform';
import { runEngine, stopOnSignals } from '@switchyard/runtime';

async function main(): Promise<void> {
  const engine = await runEngine(loadConfigOrExit());
  stopOnSignals('engine', engine.logger, () => engine.close());
  await engine.following;
}

void main().catch((error: unknown) => {
  process.stderr.write(`engine failed: ${(error as Error).stack ?? String(error)}\n`);
  // Configuration errors (a missing DATABASE_URL included) end with 2, as loadConfigOrExit does.
  process.exit(error instanceof ConfigError ? 2 : 1);
});

import { ConfigError, loadConfigOrExit } from '@switchyard/platform';
import { runEngine } from '@switchyard/app';

async function main(): Promise<void> {
  const engine = await runEngine(loadConfigOrExit());
  const shutdown = async () => {
    await engine.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  await engine.following;
}

void main().catch((error: unknown) => {
  process.stderr.write(`engine failed: ${(error as Error).stack ?? String(error)}\n`);
  // Configuration errors (a missing DATABASE_URL included) end with 2, as loadConfigOrExit does.
  process.exit(error instanceof ConfigError ? 2 : 1);
});

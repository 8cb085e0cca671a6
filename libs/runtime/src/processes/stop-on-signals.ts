import type { Logger } from 'pino';

/**
 * Stops a process on SIGINT (Ctrl-C) or SIGTERM (orchestrators), saying so: a line when the
 * signal arrives and one once everything is closed, then exit 0 (1 if closing failed). The log
 * lines still waiting in their batch are written when the process exits.
 */
export function stopOnSignals(processName: string, logger: Logger, close: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    // A second Ctrl-C while closing does not wait for it.
    if (stopping) {
      logger.warn({ signal }, `${processName} stopping at once, without waiting for the close`);
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, `${processName} stopping`);
    try {
      await close();
      logger.info(`${processName} stopped`);
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, `${processName} did not stop cleanly`);
      process.exit(1);
    }
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));
}

import { sqlErrorCode } from './sql-executor';

/** PostgreSQL's too_many_connections: max_connections, or a role's or database's connection limit. */
const TOO_MANY_CONNECTIONS = '53300';

/** How long a caller waits for a connection slot before the refusal is its answer. */
export const SERVER_FULL_WAIT_MS = 30_000;

/**
 * Opens a connection (or runs a statement that first needs one) while the server refuses new
 * sessions for being full: another process's pool, a deploy's overlap or a second test suite can
 * hold every slot for a moment. Nothing was sent when the server refuses the session, so trying
 * again is safe; after SERVER_FULL_WAIT_MS the refusal goes to the caller.
 */
export async function whileServerFull<T>(work: () => Promise<T>, waitMs = SERVER_FULL_WAIT_MS): Promise<T> {
  const giveUpAt = Date.now() + waitMs;
  for (let delayMs = 50; ; delayMs = Math.min(1_000, delayMs * 2)) {
    try {
      return await work();
    } catch (error) {
      if (sqlErrorCode(error) !== TOO_MANY_CONNECTIONS || Date.now() + delayMs > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

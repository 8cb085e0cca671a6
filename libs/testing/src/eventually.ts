import { scaledWait } from './time-scale';

export interface EventuallyOptions {
  timeoutMs?: number;
  /** Pause between probes. */
  intervalMs?: number;
}

/**
 * Probes until it answers something other than undefined, null or false, pausing between probes on a
 * timer. The pause matters as much as the probe: an in-memory PGlite answers queries on the
 * microtask queue, so a loop of probes that never sleeps starves the event loop of I/O, and the
 * very HTTP request the test waits for (a webhook delivery into the same process) never lands.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  { timeoutMs = scaledWait(120_000), intervalMs = 20 }: EventuallyOptions = {},
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined && found !== null && found !== false) return found;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

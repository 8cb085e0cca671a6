/** A pause that ends early when the signal aborts, so shutting down never waits out a backoff. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Exponential backoff with a ceiling: 100 ms, 200 ms, 400 ms ... up to capMs. */
export const backoffMs = (failures: number, capMs = 5000): number =>
  Math.min(100 * 2 ** (failures - 1), capMs);

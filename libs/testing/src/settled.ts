import type { EventStore, Position } from '@switchyard/event-store';
import { scaledWait } from './time-scale';

/**
 * Settled reads (readAll, headPosition, subscriptions) lag an append while an older append is still
 * in flight — another test worker's in the same database, for instance. Tests that read right
 * after appending first wait until the head has reached their last append.
 */
export async function untilSettled(
  store: EventStore,
  position: Position,
  timeoutMs = scaledWait(15_000),
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const head = await store.headPosition();
    if (head !== null && head >= position) return;
    if (performance.now() > deadline)
      throw new Error(`position ${position} did not settle in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

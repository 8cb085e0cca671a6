import { abortableSleep, backoffMs } from './abortable-sleep';
import type { Position, ReadAllOptions, ReadAllResult, SubscribeOptions, SubscriptionItem } from './types';
import type { Wakeup } from './wakeup';

/**
 * subscribeToAll for stores that can only be read: page through readAll, yield each event, and when
 * the feed is exhausted report caughtUp and sleep until woken (or the fallback interval passes).
 * Transient read failures are retried with exponential backoff from the last yielded position; the
 * iterator only fails after maxFailures in a row.
 */
export async function* pollingSubscription(
  readAll: (options: ReadAllOptions) => Promise<ReadAllResult>,
  wakeup: Wakeup,
  options: SubscribeOptions & { idlePollMs?: number; maxFailures?: number },
): AsyncIterable<SubscriptionItem> {
  const { signal, filter } = options;
  const limit = options.batchSize ?? 500;
  const idlePollMs = options.idlePollMs ?? 1000;
  const maxFailures = options.maxFailures ?? 8;
  let after: Position | 'start' = options.after;
  let failures = 0;
  let reportedCaughtUp: Position | 'start' | null = null;

  while (!signal.aborted) {
    // Taken before the read: an append that lands while we read or while the consumer works on the
    // page makes the idle wait below return at once instead of sleeping through it.
    const seen = wakeup.current();
    let page: ReadAllResult;
    try {
      page = await readAll({ after, limit, filter });
      failures = 0;
    } catch (error) {
      failures += 1;
      if (failures >= maxFailures || signal.aborted) throw error;
      await abortableSleep(backoffMs(failures), signal);
      continue;
    }
    for (const event of page.events) {
      if (signal.aborted) return;
      yield { kind: 'event', event };
      after = event.position;
    }
    if (signal.aborted) return;
    after = page.lastPosition;
    if (page.endOfFeed) {
      if (reportedCaughtUp !== after) {
        reportedCaughtUp = after;
        yield { kind: 'caughtUp', position: after };
      }
      await wakeup.wait(seen, signal, idlePollMs);
    }
  }
}

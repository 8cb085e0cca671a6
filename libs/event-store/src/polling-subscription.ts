import { abortableSleep, backoffMs } from './abortable-sleep';
import { comparePositions } from './position';
import type { Position, ReadAllOptions, ReadAllResult, SubscribeOptions, SubscriptionItem } from './types';
import { Wakeup, type AppendHint } from './wakeup';

export interface PollingSubscriptionOptions extends SubscribeOptions {
  /**
   * The fallback read when nothing wakes the subscriber. Default 1 s. Null when the wakeup itself
   * beats (notifies without a hint) at that pace for all its subscribers, as SqlEventStore's does:
   * then the idle subscribers of a process read together, one shared read (SharedFeedReads)
   * instead of one each at its own moment.
   */
  idlePollMs?: number | null;
  maxFailures?: number;
  /**
   * How long an append of types the filter does not take may wait before the subscriber reads past
   * it (so its reported position still reaches the head, for read-your-writes). Default 50 ms:
   * a burst of such appends costs one read, not one each. A waiter in the same process does not
   * wait for it (readNow).
   */
  unwantedDelayMs?: number;
}

/** First retry when a wanted append is not settled yet; doubles up to idlePollMs (or the default). */
const SETTLE_RETRY_MS = 5;
export const DEFAULT_IDLE_POLL_MS = 1000;

/**
 * subscribeToAll for stores that can only be read: page through readAll, yield each event, and when
 * the feed is exhausted report caughtUp and sleep until woken (or the fallback interval passes).
 * Transient read failures are retried with exponential backoff from the last yielded position; the
 * iterator only fails after maxFailures in a row.
 *
 * Appends that say what they stored (an AppendHint) wake the subscriber only when it has not read
 * past them already (an append is announced twice in a process that also hears PostgreSQL's
 * NOTIFY) and, for a filter by event type, when they stored a wanted type; others are read past
 * after unwantedDelayMs, or at once when a waiter asks (readNow). A wanted append that is not
 * settled yet when read (an older transaction still runs) makes the subscriber read again on any
 * append, and on a short backoff, until it is.
 */
export async function* pollingSubscription(
  readAll: (options: ReadAllOptions) => Promise<ReadAllResult>,
  wakeup: Wakeup,
  options: PollingSubscriptionOptions,
): AsyncIterable<SubscriptionItem> {
  const { signal, filter } = options;
  const limit = options.batchSize ?? 500;
  const idlePollMs = options.idlePollMs === undefined ? DEFAULT_IDLE_POLL_MS : options.idlePollMs;
  const settleRetryCapMs = idlePollMs ?? DEFAULT_IDLE_POLL_MS;
  const maxFailures = options.maxFailures ?? 8;
  const unwantedDelayMs = options.unwantedDelayMs ?? 50;
  const wanted = filter?.eventTypes ? new Set(filter.eventTypes) : null;
  let after: Position | 'start' = options.after;
  let failures = 0;
  let reportedCaughtUp: Position | 'start' | null = null;
  /** The newest wanted append heard of that no read has reached yet. */
  let awaited: Position | null = null;
  let settleRetries = 0;
  let unwantedTimer: NodeJS.Timeout | null = null;

  // This subscriber's own wake-up, notified only for the appends it should read.
  const relevant = new Wakeup();
  const onAppend = (hint: AppendHint | undefined): void => {
    if (!hint) return relevant.notify();
    if (comparePositions(hint.position, after) <= 0) return;
    if (!wanted || !hint.types || hint.types.some((type) => wanted.has(type))) {
      if (awaited === null || comparePositions(hint.position, awaited) > 0) awaited = hint.position;
      return relevant.notify();
    }
    // Any commit may be the one that settles the awaited append.
    if (awaited !== null) return relevant.notify();
    unwantedTimer ??= setTimeout(() => {
      unwantedTimer = null;
      relevant.notify();
    }, unwantedDelayMs);
    unwantedTimer.unref?.();
  };
  const stopListening = wakeup.listen(onAppend);
  const stopReadingNow = options.readNow?.listen(() => {
    if (unwantedTimer) clearTimeout(unwantedTimer);
    unwantedTimer = null;
    relevant.notify();
  });

  try {
    while (!signal.aborted) {
      // Taken before the read: an append that lands while we read or while the consumer works on the
      // page makes the idle wait below return at once instead of sleeping through it.
      const seen = relevant.current();
      let page: ReadAllResult;
      try {
        // Right after a read that reached the head, only the latest appends lie beyond it.
        page = await readAll({ after, limit, filter, nearHead: reportedCaughtUp === after });
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
      if (awaited !== null && comparePositions(after, awaited) >= 0) {
        awaited = null;
        settleRetries = 0;
      }
      if (page.endOfFeed) {
        if (reportedCaughtUp !== after) {
          reportedCaughtUp = after;
          yield { kind: 'caughtUp', position: after };
        }
        const timeout =
          awaited === null ? idlePollMs : Math.min(settleRetryCapMs, SETTLE_RETRY_MS * 2 ** settleRetries++);
        await relevant.wait(seen, signal, timeout);
      }
    }
  } finally {
    stopListening();
    stopReadingNow?.();
    if (unwantedTimer) clearTimeout(unwantedTimer);
  }
}

import { encodeSqlPosition } from './position';
import { pollingSubscription, type PollingSubscriptionOptions } from './polling-subscription';
import type { Position, ReadAllOptions, ReadAllResult, RecordedEvent, SubscriptionItem } from './types';
import { Wakeup } from './wakeup';

const HOUR = 3_600_000;
const at = (n: number): Position => encodeSqlPosition(BigInt(n), BigInt(n));

/**
 * A feed in memory that counts its reads. `settledUpTo` stands for the xmin horizon: events after
 * it exist but are not handed out yet, as when an older transaction still runs.
 */
class Feed {
  reads = 0;
  nearHead: Array<boolean | undefined> = [];
  events: RecordedEvent[] = [];
  settledUpTo = 0;

  append(n: number, type: string): void {
    this.events.push({
      streamId: `s-${n}`,
      revision: 0n,
      position: at(n),
      eventId: `e-${n}`,
      type,
      schemaVersion: 1,
      data: {},
      metadata: {},
      recordedAt: new Date(0),
    });
  }

  readAll = async (options: ReadAllOptions): Promise<ReadAllResult> => {
    this.reads += 1;
    this.nearHead.push(options.nearHead);
    const settled = this.events.filter((event) => event.position <= at(this.settledUpTo));
    const types = options.filter?.eventTypes;
    const page = settled.filter(
      (event) =>
        event.position > (options.after === 'start' ? '' : options.after) &&
        (!types || types.includes(event.type)),
    );
    const head = settled[settled.length - 1]?.position ?? options.after;
    return { events: page, lastPosition: head, endOfFeed: true };
  };
}

/** Pulls items from the subscription one at a time. */
function consumer(iterable: AsyncIterable<SubscriptionItem>) {
  const iterator = iterable[Symbol.asyncIterator]();
  return { next: async () => (await iterator.next()).value as SubscriptionItem };
}

describe('pollingSubscription wake-ups', () => {
  let feed: Feed;
  let wakeup: Wakeup;
  let controller: AbortController;

  beforeEach(() => {
    feed = new Feed();
    wakeup = new Wakeup();
    controller = new AbortController();
  });
  afterEach(() => controller.abort());

  const subscribe = (eventTypes?: string[], options: Partial<PollingSubscriptionOptions> = {}) =>
    consumer(
      pollingSubscription(feed.readAll, wakeup, {
        after: 'start',
        signal: controller.signal,
        ...(eventTypes ? { filter: { eventTypes } } : {}),
        idlePollMs: HOUR,
        unwantedDelayMs: HOUR,
        ...options,
      }),
    );

  it('is not woken by an append of a type it does not read, and is by one it reads', async () => {
    const subscription = subscribe(['wanted']);
    expect(await subscription.next()).toEqual({ kind: 'caughtUp', position: 'start' });
    const next = subscription.next();

    feed.append(1, 'other');
    feed.settledUpTo = 1;
    wakeup.notify({ types: ['other'], position: at(1) });
    feed.append(2, 'wanted');
    feed.settledUpTo = 2;
    wakeup.notify({ types: ['wanted'], position: at(2) });

    expect(await next).toMatchObject({ kind: 'event', event: { position: at(2) } });
    // The first read, then one for the wanted append: the other one did not cost a read.
    expect(feed.reads).toBe(2);
  });

  it('says a read is near the head only when its previous read reached the head there', async () => {
    feed.append(1, 'wanted');
    feed.settledUpTo = 1;
    const subscription = subscribe(['wanted']);
    expect(await subscription.next()).toMatchObject({ kind: 'event', event: { position: at(1) } });
    expect(await subscription.next()).toEqual({ kind: 'caughtUp', position: at(1) });
    const next = subscription.next();
    feed.append(2, 'wanted');
    feed.settledUpTo = 2;
    wakeup.notify({ types: ['wanted'], position: at(2) });
    expect(await next).toMatchObject({ kind: 'event', event: { position: at(2) } });
    expect(feed.nearHead).toEqual([false, true]);
  });

  it('reads past an append it does not take as soon as a waiter asks (readNow), not after the delay', async () => {
    const readNow = new Wakeup();
    const subscription = subscribe(['wanted'], { readNow });
    expect(await subscription.next()).toEqual({ kind: 'caughtUp', position: 'start' });
    const next = subscription.next();
    feed.append(1, 'other');
    feed.settledUpTo = 1;
    wakeup.notify({ types: ['other'], position: at(1) });
    expect(feed.reads).toBe(1);

    readNow.notify();
    expect(await next).toEqual({ kind: 'caughtUp', position: at(1) });
    expect(feed.reads).toBe(2);
  });

  it('is not woken again by an append it has already read past (announced twice)', async () => {
    const subscription = subscribe();
    await subscription.next();
    feed.append(1, 'any');
    feed.settledUpTo = 1;
    wakeup.notify({ types: ['any'], position: at(1) });
    expect(await subscription.next()).toMatchObject({ kind: 'event', event: { position: at(1) } });
    expect(await subscription.next()).toEqual({ kind: 'caughtUp', position: at(1) });
    const next = subscription.next();

    wakeup.notify({ types: ['any'], position: at(1) });
    feed.append(2, 'any');
    feed.settledUpTo = 2;
    wakeup.notify({ types: ['any'], position: at(2) });

    expect(await next).toMatchObject({ kind: 'event', event: { position: at(2) } });
    expect(feed.reads).toBe(3);
  });

  it('reads until a wanted append that was not settled yet has settled', async () => {
    const subscription = subscribe(['wanted']);
    await subscription.next();
    const next = subscription.next();

    // Appended behind an older transaction that still runs: the first read does not see it.
    feed.append(1, 'other');
    feed.append(2, 'wanted');
    wakeup.notify({ types: ['wanted'], position: at(2) });
    // The older transaction commits, with no announcement at all (not every transaction appends):
    // the short settle backoff finds the event without waiting for the hour-long idle poll.
    setTimeout(() => (feed.settledUpTo = 2), 20);

    expect(await next).toMatchObject({ kind: 'event', event: { position: at(2) } });
  });

  it('still reads past appends it does not read, so its position reaches the head', async () => {
    const subscription = subscribe(['wanted'], { unwantedDelayMs: 1 });
    await subscription.next();
    feed.append(1, 'other');
    feed.settledUpTo = 1;
    wakeup.notify({ types: ['other'], position: at(1) });
    expect(await subscription.next()).toEqual({ kind: 'caughtUp', position: at(1) });
  });

  it('reads on a head-only hint (no types) when behind it, whatever the filter, and not when at it', async () => {
    const subscription = subscribe(['wanted']);
    expect(await subscription.next()).toEqual({ kind: 'caughtUp', position: 'start' });
    feed.append(1, 'other');
    feed.settledUpTo = 1;
    wakeup.notify({ position: at(1) });
    expect(await subscription.next()).toEqual({ kind: 'caughtUp', position: at(1) });
    const readsAtHead = feed.reads;

    wakeup.notify({ position: at(1) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(feed.reads).toBe(readsAtHead);
  });

  it('wakes on a notification without a hint, whatever the filter', async () => {
    const subscription = subscribe(['wanted']);
    await subscription.next();
    const next = subscription.next();
    feed.append(1, 'other');
    feed.settledUpTo = 1;
    wakeup.notify();
    expect(await next).toEqual({ kind: 'caughtUp', position: at(1) });
  });
});

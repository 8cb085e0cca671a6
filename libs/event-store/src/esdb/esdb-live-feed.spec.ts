import { EventEmitter } from 'node:events';
import { Transform, type TransformCallback } from 'node:stream';
import type { AllStreamResolvedEvent, AllStreamSubscription, Position } from '@eventstore/db-client';
import { LiveFeed, type LiveItem } from './esdb-live-feed';

const at = (n: number): Position => ({ commit: BigInt(n), prepare: BigInt(n) });
const resolvedAt = (n: number) => ({ event: { position: at(n) } }) as unknown as AllStreamResolvedEvent;

const describeItem = (item: LiveItem): string =>
  item.kind === 'event'
    ? `e${item.resolved.event!.position.commit}`
    : item.kind === 'checkpoint'
      ? `checkpoint@${item.position.commit}`
      : 'caughtUp';

async function drain(feed: LiveFeed, count: number): Promise<string[]> {
  const signal = new AbortController().signal;
  const items: string[] = [];
  while (items.length < count) {
    const item = await feed.next(signal);
    if (!item) break;
    items.push(describeItem(item));
  }
  return items;
}

/** Stands in for the client's Subscription: a stream whose internal buffer size the test controls. */
class BufferedSubscription extends EventEmitter {
  readableLength = 0;
  paused = false;
  pause() {
    this.paused = true;
  }
  resume() {
    this.paused = false;
  }
  isPaused() {
    return this.paused;
  }
  async unsubscribe() {}
}

/** Behaves like the client's Subscription Transform: markers are signalled as their response is transformed. */
class TransformSubscription extends Transform {
  constructor(private readonly onCheckpoint: (position: Position) => void) {
    super({ objectMode: true });
  }
  override _transform(
    chunk: { checkpoint?: number; event?: number },
    _: string,
    next: TransformCallback,
  ): void {
    if (chunk.checkpoint !== undefined) {
      this.onCheckpoint(at(chunk.checkpoint));
      next();
    } else next(null, resolvedAt(chunk.event!));
  }
  async unsubscribe() {}
}

describe('LiveFeed', () => {
  it('hands a marker out after the events that were still buffered in the stream when it was signalled', async () => {
    const subscription = new BufferedSubscription();
    const feed = new LiveFeed();
    feed.attach(subscription as unknown as AllStreamSubscription);

    for (const n of [1, 2, 3]) subscription.emit('data', resolvedAt(n));
    subscription.readableLength = 2; // events 4 and 5 were produced but are still in the stream's buffer
    feed.onCheckpoint(at(5));
    subscription.readableLength = 1;
    subscription.emit('data', resolvedAt(4));
    subscription.readableLength = 0;
    subscription.emit('data', resolvedAt(5));
    subscription.emit('caughtUp');
    subscription.emit('data', resolvedAt(6));

    expect(await drain(feed, 8)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'checkpoint@5', 'caughtUp', 'e6']);
  });

  it('keeps order under back-pressure, pausing the stream while the consumer is behind', async () => {
    const feed = new LiveFeed();
    const subscription = new TransformSubscription((position) => feed.onCheckpoint(position));
    feed.attach(subscription as unknown as AllStreamSubscription);
    const expected: string[] = [];
    for (let n = 1; n <= 1000; n++) {
      subscription.write({ event: n });
      expected.push(`e${n}`);
      if (n % 100 === 0) {
        subscription.write({ checkpoint: n });
        expected.push(`checkpoint@${n}`);
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(subscription.isPaused()).toBe(true);

    expect(await drain(feed, expected.length)).toEqual(expected);
    await feed.close();
  });

  it('throws what the stream failed with once the events before the failure are handed out', async () => {
    const subscription = new BufferedSubscription();
    const feed = new LiveFeed();
    feed.attach(subscription as unknown as AllStreamSubscription);
    subscription.emit('data', resolvedAt(1));
    subscription.emit('error', new Error('connection dropped'));

    const signal = new AbortController().signal;
    expect(describeItem((await feed.next(signal))!)).toBe('e1');
    await expect(feed.next(signal)).rejects.toThrow('connection dropped');
  });

  it('returns null when aborted while waiting', async () => {
    const feed = new LiveFeed();
    feed.attach(new BufferedSubscription() as unknown as AllStreamSubscription);
    const controller = new AbortController();
    const waiting = feed.next(controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBeNull();
  });
});

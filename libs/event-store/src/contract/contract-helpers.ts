import { randomBytes, randomUUID } from 'node:crypto';
import type { EventStore, NewEvent, Position, SubscribeOptions, SubscriptionItem } from '../types';

/**
 * Stream names unique to one run of the suite, so tests can share a store (PGlite takes seconds to
 * start) and a long-lived EventStoreDB server never mixes runs. No '-' inside the run id: ESDB and
 * message-db take the text before the first '-' as the stream's category.
 */
export class StreamNames {
  readonly run = `c${randomBytes(5).toString('hex')}`;
  private counter = 0;

  next(label: string): string {
    this.counter += 1;
    return `${this.run}${label}-${this.counter}`;
  }
}

export const newEvent = (type: string, data: object = {}, metadata?: Record<string, unknown>): NewEvent => ({
  eventId: randomUUID(),
  type,
  data,
  ...(metadata ? { metadata } : {}),
});

export const events = (count: number, type = 'Tested'): NewEvent[] =>
  Array.from({ length: count }, (_, index) => newEvent(type, { index }));

/** The rejection of a promise that must fail, for assertions on the error's fields. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** A subscription driven one item at a time, aborted by stop(). */
export class SubscriptionProbe {
  private readonly controller = new AbortController();
  private readonly iterator: AsyncIterator<SubscriptionItem>;

  constructor(store: EventStore, options: Omit<SubscribeOptions, 'signal'>) {
    this.iterator = store
      .subscribeToAll({ ...options, signal: this.controller.signal })
      [Symbol.asyncIterator]();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  async next(): Promise<IteratorResult<SubscriptionItem>> {
    return this.iterator.next();
  }

  /** Items up to and including the first one the predicate accepts; fails if the subscription ends first. */
  async takeUntil(stop: (item: SubscriptionItem) => boolean): Promise<SubscriptionItem[]> {
    const items: SubscriptionItem[] = [];
    for (;;) {
      const result = await this.iterator.next();
      if (result.done) throw new Error(`subscription ended after ${items.length} items`);
      items.push(result.value);
      if (stop(result.value)) return items;
    }
  }

  /** Items up to the first caughtUp at or beyond the position. */
  takeUntilCaughtUpAt(position: Position): Promise<SubscriptionItem[]> {
    return this.takeUntil(
      (item) => item.kind === 'caughtUp' && item.position !== 'start' && item.position >= position,
    );
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.iterator.return?.();
  }
}

export const eventsOf = (items: SubscriptionItem[]) =>
  items.flatMap((item) => (item.kind === 'event' ? [item.event] : []));

export { untilSettled } from '@switchyard/testing';

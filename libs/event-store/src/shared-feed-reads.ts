import { BatchedCalls } from '@switchyard/kernel';
import type { EventFilter, Position, ReadAllOptions, ReadAllResult } from './types';

type ReadAll = (options: ReadAllOptions) => Promise<ReadAllResult>;

/**
 * The subscriptions of one process read the feed together. After an append every processor that
 * is at the head wakes and asks for the page after the same position; those asks, made in the same
 * turn of the event loop, become one read whose filter takes every type any of them wants (or no
 * filter, when one of them takes everything), and each gets the events its own filter takes.
 *
 * Each one's page is still exact: its events are those of the shared page it takes, in order; the
 * shared page ends where it ends, and no event it wants lies between its last event and that end,
 * because the shared filter takes everything it takes. So `lastPosition` and `endOfFeed` carry
 * over unchanged. Asks filtered by stream are read on their own.
 */
export class SharedFeedReads {
  private readonly byPlace = new Map<string, BatchedCalls<ReadAllOptions, ReadAllResult>>();

  constructor(private readonly readAll: ReadAll) {}

  read(options: ReadAllOptions): Promise<ReadAllResult> {
    const filter = options.filter;
    if (filter?.streamCategories?.length || filter?.streamPrefixes?.length) return this.readAll(options);
    return this.readersAt(options.after, options.limit).call(options);
  }

  private readersAt(after: Position | 'start', limit: number): BatchedCalls<ReadAllOptions, ReadAllResult> {
    const key = `${limit}:${after}`;
    let readers = this.byPlace.get(key);
    if (!readers) {
      readers = new BatchedCalls(async (asks) => {
        // Done with this place once read: the readers move on, and the map stays small.
        this.byPlace.delete(key);
        if (asks.length === 1) return [await this.readAll(asks[0]!)];
        const page = await this.readAll({
          after,
          limit,
          filter: unionOf(asks.map((ask) => ask.filter)),
          // Only as near the head as the one furthest from it.
          ...(asks.every((ask) => ask.nearHead) && { nearHead: true }),
        });
        return asks.map((ask) => pageFor(page, ask.filter));
      });
      this.byPlace.set(key, readers);
    }
    return readers;
  }
}

function unionOf(filters: ReadonlyArray<EventFilter | undefined>): EventFilter | undefined {
  const types = new Set<string>();
  for (const filter of filters) {
    if (!filter?.eventTypes) return undefined;
    for (const type of filter.eventTypes) types.add(type);
  }
  return { eventTypes: [...types].sort() };
}

function pageFor(page: ReadAllResult, filter: EventFilter | undefined): ReadAllResult {
  if (!filter?.eventTypes) return page;
  const wanted = new Set(filter.eventTypes);
  return { ...page, events: page.events.filter((event) => wanted.has(event.type)) };
}

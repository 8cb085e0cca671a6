import type { EventFilter, EventStore, Position, ReadAllResult } from '@switchyard/event-store';

/**
 * readAll pages from a position to the end of the feed, each next page already being read while
 * the caller applies the current one, so reading and writing overlap instead of taking turns.
 */
export async function* readAheadFeed(
  store: EventStore,
  options: { after: Position | 'start'; limit: number; filter?: EventFilter },
): AsyncGenerator<ReadAllResult> {
  const read = (after: Position | 'start') => {
    const page = store.readAll({ after, limit: options.limit, filter: options.filter });
    // Awaited on the next turn; until then a failure must not count as unhandled.
    page.catch(() => undefined);
    return page;
  };
  let next = read(options.after);
  for (;;) {
    const page = await next;
    if (!page.endOfFeed) next = read(page.lastPosition);
    yield page;
    if (page.endOfFeed) return;
  }
}

import type { EventFilter, EventStore, Position } from '@switchyard/event-store';

/** Our catch-up reader, one readAll page per call, as a projection runner pages the feed. */
export function storePageReader(
  store: EventStore,
  pageSize: number,
  filter?: EventFilter,
): { next: () => Promise<boolean>; count: () => number } {
  let after: Position | 'start' = 'start';
  let total = 0;
  const next = async () => {
    const page = await store.readAll({ after, limit: pageSize, filter });
    total += page.events.length;
    after = page.lastPosition;
    return page.endOfFeed;
  };
  return { next, count: () => total };
}

/** Reads the whole (filtered) feed; returns the events read. */
export async function readToEnd(store: EventStore, pageSize: number, filter?: EventFilter): Promise<number> {
  const reader = storePageReader(store, pageSize, filter);
  while (!(await reader.next()));
  return reader.count();
}

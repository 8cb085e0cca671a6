import type { EventFilter, RecordedEvent } from '@switchyard/event-store';

/** Above this share of the feed, reading everything and dropping the rest in memory is cheaper. */
const UNFILTERED_READ_SHARE = 0.5;

/**
 * How the bulk load reads the feed. A filtered page is a merge of one index scan per wanted type,
 * which costs PostgreSQL about a third more than the plain feed order when most events are wanted
 * anyway (the activity log maps nearly every event). Then the bulk load reads the feed unfiltered and
 * keeps the wanted types itself; a projection that wants a small share keeps the index-served filter.
 */
export function bulkReadPlan(
  filter: EventFilter | undefined,
  wanted: number | null,
  feedSize: number | null,
): { filter: EventFilter | undefined; keep: (event: RecordedEvent) => boolean } {
  const everything = { filter, keep: () => true };
  if (!filter?.eventTypes || filter.streamCategories || filter.streamPrefixes) return everything;
  if (wanted === null || !feedSize || wanted < feedSize * UNFILTERED_READ_SHARE) return everything;
  const wantedTypes = new Set(filter.eventTypes);
  return { filter: undefined, keep: (event) => wantedTypes.has(event.type) };
}

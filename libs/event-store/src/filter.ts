import { streamCategory } from './stream-category';
import type { EventFilter, RecordedEvent } from './types';

export const matchesFilter = (
  event: Pick<RecordedEvent, 'type' | 'streamId'>,
  filter?: EventFilter,
): boolean => {
  if (!filter) return true;
  if (filter.eventTypes && !filter.eventTypes.includes(event.type)) return false;
  if (filter.streamCategories && !filter.streamCategories.includes(streamCategory(event.streamId)))
    return false;
  if (filter.streamPrefixes && !filter.streamPrefixes.some((prefix) => event.streamId.startsWith(prefix)))
    return false;
  return true;
};

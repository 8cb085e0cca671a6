import type { Filter, Position as EsdbPosition } from '@eventstore/db-client';
import { CATEGORY_SEPARATOR } from '../stream-category';
import type { EventFilter } from '../types';

/**
 * The server-side part of a subscription filter. The server takes one expression, on the event
 * type or on the stream name, so this picks one (stream prefixes, else categories, else types) and the adapter applies the full
 * filter (and the exclusion of $ system events) again on each event it receives. Every variant
 * excludes system events, and checkpoints report how far filtered-out stretches have moved us.
 */
export function serverFilter(
  filter: EventFilter | undefined,
  checkpointReached: (position: EsdbPosition) => void,
): Filter {
  const base = {
    checkpointInterval: 1,
    checkpointReached: (_: unknown, position: EsdbPosition) => checkpointReached(position),
  };
  if (filter?.streamPrefixes?.length) {
    return { ...base, filterOn: 'streamName', prefixes: [...filter.streamPrefixes] };
  }
  if (filter?.streamCategories?.length) {
    const categories = filter.streamCategories.map(escapeRegex).join('|');
    return { ...base, filterOn: 'streamName', regex: `^(?:${categories})(?:${CATEGORY_SEPARATOR}|$)` };
  }
  if (filter?.eventTypes?.length) {
    return { ...base, filterOn: 'eventType', regex: `^(?:${filter.eventTypes.map(escapeRegex).join('|')})$` };
  }
  return { ...base, filterOn: 'eventType', regex: '^[^$]' };
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

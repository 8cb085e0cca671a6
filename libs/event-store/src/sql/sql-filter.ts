import type { EventFilter } from '../types';

/**
 * The filter as extra WHERE conditions, its values appended to params. Stream prefixes become LIKE
 * patterns with `\`, `%` and `_` escaped, so a prefix such as `repo_1%` matches literally.
 */
export function filterConditions(filter: EventFilter | undefined, params: unknown[]): string {
  let sql = '';
  if (filter?.eventTypes) {
    params.push(filter.eventTypes);
    sql += ` AND event_type = ANY($${params.length}::text[])`;
  }
  if (filter?.streamPrefixes) {
    params.push(filter.streamPrefixes.map((prefix) => `${escapeLike(prefix)}%`));
    sql += ` AND stream_id LIKE ANY($${params.length}::text[])`;
  }
  return sql;
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

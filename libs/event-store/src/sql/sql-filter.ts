import { SQL_STREAM_CATEGORY } from '../stream-category';
import type { EventFilter } from '../types';

/**
 * The filter as extra WHERE conditions, its values appended to params. Stream prefixes become LIKE
 * patterns with `\`, `%` and `_` escaped, so a prefix such as `repo_1%` matches literally.
 */
export function filterConditions(filter: EventFilter | undefined, params: unknown[]): string {
  return (
    anyOf('event_type', filter?.eventTypes, params) +
    anyOf(SQL_STREAM_CATEGORY, filter?.streamCategories, params) +
    prefixCondition(filter?.streamPrefixes, params)
  );
}

/**
 * The filter split for an index-served read: one condition per branch (each an equality an index
 * leads with: a wanted event type, else a wanted category) and the rest, checked on every row a
 * branch yields. No filter gives one branch with no condition; an empty list gives no branch.
 */
export function filterBranches(
  filter: EventFilter | undefined,
  params: unknown[],
): { branches: string[]; residual: string } {
  if (filter?.eventTypes) {
    const branches = equalities('event_type', filter.eventTypes, params);
    const residual =
      anyOf(SQL_STREAM_CATEGORY, filter.streamCategories, params) +
      prefixCondition(filter.streamPrefixes, params);
    return { branches, residual };
  }
  if (filter?.streamCategories) {
    const branches = equalities(SQL_STREAM_CATEGORY, filter.streamCategories, params);
    return { branches, residual: prefixCondition(filter.streamPrefixes, params) };
  }
  return { branches: [''], residual: prefixCondition(filter?.streamPrefixes, params) };
}

function equalities(column: string, values: readonly string[], params: unknown[]): string[] {
  return [...new Set(values)].map((value) => {
    params.push(value);
    return ` AND ${column} = $${params.length}`;
  });
}

function anyOf(column: string, values: readonly string[] | undefined, params: unknown[]): string {
  if (!values) return '';
  params.push(values);
  return ` AND ${column} = ANY($${params.length}::text[])`;
}

function prefixCondition(prefixes: readonly string[] | undefined, params: unknown[]): string {
  if (!prefixes) return '';
  params.push(prefixes.map((prefix) => `${escapeLike(prefix)}%`));
  return ` AND stream_id LIKE ANY($${params.length}::text[])`;
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

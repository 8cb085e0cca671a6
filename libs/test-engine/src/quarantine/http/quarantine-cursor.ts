import { decodeCursor, encodeCursor } from '@switchyard/http';
import {
  type PageRequest,
  QUARANTINE_SORTS,
  type QuarantineSort,
  type SortDirection,
  type SortKey,
} from '../domain/quarantine-listing';

/** Where a page resumes, and the order it was cut in: a cursor only resumes that same order. */
interface QuarantineCursor {
  sort: QuarantineSort;
  direction: SortDirection;
  after?: SortKey;
  before?: SortKey;
}

const isSortKey = (value: unknown): value is SortKey =>
  Array.isArray(value) &&
  value.length === 2 &&
  (typeof value[0] === 'string' || (typeof value[0] === 'number' && Number.isFinite(value[0]))) &&
  typeof value[1] === 'string';

const isQuarantineCursor = (value: unknown): value is QuarantineCursor => {
  if (typeof value !== 'object' || value === null) return false;
  const cursor = value as Record<string, unknown>;
  return (
    (QUARANTINE_SORTS as readonly unknown[]).includes(cursor.sort) &&
    (cursor.direction === 'asc' || cursor.direction === 'desc') &&
    (cursor.after === undefined) !== (cursor.before === undefined) &&
    (cursor.after === undefined || isSortKey(cursor.after)) &&
    (cursor.before === undefined || isSortKey(cursor.before))
  );
};

export const encodeQuarantineCursor = (
  sort: QuarantineSort,
  direction: SortDirection,
  from: { after: SortKey } | { before: SortKey },
): string => encodeCursor({ sort, direction, ...from });

/** The page a cursor asks for; a cursor cut in another order than the query's is refused (422). */
export function pageRequestOf(
  cursor: string | undefined,
  perPage: number,
  sort: QuarantineSort,
  direction: SortDirection,
): PageRequest {
  if (cursor === undefined) return { perPage };
  const decoded = decodeCursor(
    cursor,
    (value): value is QuarantineCursor =>
      isQuarantineCursor(value) && value.sort === sort && value.direction === direction,
  );
  return { perPage, from: decoded.after ? { after: decoded.after } : { before: decoded.before! } };
}

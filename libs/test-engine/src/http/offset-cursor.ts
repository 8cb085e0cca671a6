import { decodeCursor, encodeCursor } from '@switchyard/http';

/** Test-engine pages are offsets into a stable order; the cursor hides that behind base64url. */
interface OffsetCursor {
  o: number;
}

const isOffsetCursor = (value: unknown): value is OffsetCursor =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as OffsetCursor).o) &&
  (value as OffsetCursor).o >= 0;

export const offsetOf = (cursor: string | undefined): number =>
  cursor ? decodeCursor(cursor, isOffsetCursor).o : 0;

/** next when more rows follow, prev when this page is not the first. */
export function offsetLinks(
  offset: number,
  perPage: number,
  hasMore: boolean,
): { next?: string; prev?: string } {
  return {
    ...(hasMore ? { next: encodeCursor({ o: offset + perPage }) } : {}),
    ...(offset > 0 ? { prev: encodeCursor({ o: Math.max(0, offset - perPage) }) } : {}),
  };
}

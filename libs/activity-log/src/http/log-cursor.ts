import { decodeCursor, encodeCursor } from '@switchyard/http';
import { isStorableInstant } from '@switchyard/kernel';
import type { TimeWindow } from '../domain/log-query';
import type { PageStart } from '../query/list-logs';

/**
 * What a GET logs cursor carries: where the page starts (direction and the (received_at, id) of the
 * record it follows) and the window of the first page, so pages of a query that left the window to
 * its defaults ("the last day") keep the same window instead of sliding with the clock.
 */
interface LogCursorJson {
  /** n: older records (next), p: newer records (prev). */
  d: 'n' | 'p';
  /** received_at of the record the page starts after, in epoch milliseconds. */
  t: number;
  i: number;
  /** The window, in epoch milliseconds. */
  f: number;
  u: number;
}

export interface LogCursor {
  start: PageStart;
  window: TimeWindow;
}

const isInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value);

/** Cursors we issue only ever carry instants of stored records and windows we accepted. */
const isInstant = (value: unknown): value is number => isInteger(value) && isStorableInstant(value);

const isLogCursorJson = (value: unknown): value is LogCursorJson => {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    (c.d === 'n' || c.d === 'p') &&
    isInstant(c.t) &&
    isInteger(c.i) &&
    c.i >= 0 &&
    isInstant(c.f) &&
    isInstant(c.u)
  );
};

export const encodeLogCursor = ({ start, window }: LogCursor): string =>
  encodeCursor({
    d: start.direction === 'next' ? 'n' : 'p',
    t: start.position.receivedAt.getTime(),
    i: start.position.id,
    f: window.from.getTime(),
    u: window.to.getTime(),
  } satisfies LogCursorJson);

/** 422 "Invalid cursor" for anything we did not issue. */
export function decodeLogCursor(text: string): LogCursor {
  const json = decodeCursor(text, isLogCursorJson);
  return {
    start: {
      direction: json.d === 'n' ? 'next' : 'prev',
      position: { receivedAt: new Date(json.t), id: json.i },
    },
    window: { from: new Date(json.f), to: new Date(json.u) },
  };
}

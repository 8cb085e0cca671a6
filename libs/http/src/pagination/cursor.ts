import { UnprocessableEntityException } from '@nestjs/common';

/**
 * Opaque pagination cursors: base64url of a small JSON value, so only `[A-Za-z0-9_-]` ever appears
 * (the CLI form-decodes the cursor, and a `+` would come back as a space; client-contract §2.2).
 * Not signed: a cursor only says where to resume a query the caller may run anyway, so a forged one
 * can at worst skip rows the caller can read. Readers must still check the decoded shape.
 */
export const INVALID_CURSOR_DETAIL = 'Invalid cursor';
const CURSOR = /^[A-Za-z0-9_-]+$/;
/** Cursors are small; a huge one is garbage, and refusing it early avoids decoding it. */
const MAX_CURSOR_LENGTH = 2048;

export const encodeCursor = (value: unknown): string =>
  Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * Decodes a cursor and checks its shape with `isValid`; any failure is a 422 `{"detail": "Invalid
 * cursor"}`, since the caller sent something we never issued.
 */
export function decodeCursor<T>(cursor: string, isValid: (value: unknown) => value is T): T {
  if (cursor.length > MAX_CURSOR_LENGTH || !CURSOR.test(cursor)) throw invalidCursor();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!isValid(value)) throw invalidCursor();
  return value;
}

const invalidCursor = () => new UnprocessableEntityException(INVALID_CURSOR_DETAIL);

/**
 * A text[] parameter sent to PostgreSQL in binary (`$n::text[]` in the statement). node-postgres
 * sends arrays as literals, escaping every quote and backslash of every element, and the server
 * unescapes them again: for an event's JSON (a few hundred kB, quotes everywhere) that costs more
 * than the JSON.stringify that made it. Binary, each element goes as its UTF-8 bytes behind a
 * length. PGlite takes the values as a plain array.
 */
export class TextArray {
  /** null and undefined both go as SQL NULL, as node-postgres sends them. */
  constructor(readonly values: readonly (string | null | undefined)[]) {}
}

export const textArray = (values: readonly (string | null | undefined)[]): TextArray => new TextArray(values);

const TEXT_OID = 25;
const HEADER_BYTES = 20;
/** No dimensions: how PostgreSQL itself sends an empty array. */
const EMPTY = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, TEXT_OID]);

/** PostgreSQL's binary array format (array_recv): one dimension, lower bound 1, text elements. */
export function encodeTextArray(values: readonly (string | null | undefined)[]): Buffer {
  if (values.length === 0) return EMPTY;
  const lengths = values.map((value) => (value == null ? -1 : Buffer.byteLength(value, 'utf8')));
  let size = HEADER_BYTES;
  for (const length of lengths) size += 4 + Math.max(length, 0);
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(1, 0);
  out.writeInt32BE(lengths.includes(-1) ? 1 : 0, 4);
  out.writeInt32BE(TEXT_OID, 8);
  out.writeInt32BE(values.length, 12);
  out.writeInt32BE(1, 16);
  let at = HEADER_BYTES;
  values.forEach((value, index) => {
    const length = lengths[index]!;
    out.writeInt32BE(length, at);
    at += 4;
    if (value != null) at += out.write(value, at, length, 'utf8');
  });
  return out;
}

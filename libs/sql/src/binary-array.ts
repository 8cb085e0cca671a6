/**
 * Array parameters sent to PostgreSQL in binary (`$n::text[]`, `$n::float8[]` … in the statement).
 * node-postgres sends arrays as literals: it escapes every element (every quote and backslash of
 * every string) and the server parses them back. For an event's JSON (a few hundred kB, quotes
 * everywhere) that costs more than the JSON.stringify that made it, and a thousand numbers cost a
 * thousand escapes. Binary, each element goes as its bytes behind a length. PGlite takes the
 * values as a plain array.
 */
export class BinaryArray {
  /** null and undefined both go as SQL NULL, as node-postgres sends them. */
  constructor(
    readonly element: ArrayElement,
    readonly values: readonly unknown[],
  ) {}
}

/** The element types sent in binary, by PostgreSQL type name. */
export type ArrayElement = keyof typeof ELEMENTS;

type Maybe<T> = T | null | undefined;
export const textArray = (values: readonly Maybe<string>[]) => new BinaryArray('text', values);
export const float8Array = (values: readonly Maybe<number>[]) => new BinaryArray('float8', values);
export const int4Array = (values: readonly Maybe<number>[]) => new BinaryArray('int4', values);
export const int2Array = (values: readonly Maybe<number>[]) => new BinaryArray('int2', values);
export const boolArray = (values: readonly Maybe<boolean>[]) => new BinaryArray('bool', values);

/** Element OIDs (array_recv checks them) and fixed widths; text elements are as long as they are. */
const ELEMENTS = {
  text: { oid: 25, width: 0 },
  float8: { oid: 701, width: 8 },
  int4: { oid: 23, width: 4 },
  int2: { oid: 21, width: 2 },
  bool: { oid: 16, width: 1 },
} as const;

const HEADER_BYTES = 20;

/** PostgreSQL's binary array format (array_recv): one dimension, lower bound 1. */
export function encodeBinaryArray({ element, values }: BinaryArray): Buffer {
  if (element === 'text') return encodeTextArray(values as readonly Maybe<string>[]);
  const { oid, width } = ELEMENTS[element];
  if (values.length === 0) return emptyArray(oid);
  let size = HEADER_BYTES;
  for (const value of values) size += 4 + (value == null ? 0 : width);
  const out = header(Buffer.allocUnsafe(size), oid, values);
  let at = HEADER_BYTES;
  for (const value of values) {
    if (value == null) {
      at = out.writeInt32BE(-1, at);
      continue;
    }
    at = out.writeInt32BE(width, at);
    if (element === 'float8') at = out.writeDoubleBE(value as number, at);
    else if (element === 'int4') at = out.writeInt32BE(value as number, at);
    else if (element === 'int2') at = out.writeInt16BE(value as number, at);
    else at = out.writeUInt8(value ? 1 : 0, at);
  }
  return out;
}

/** Text elements as their UTF-8 bytes. */
export function encodeTextArray(values: readonly Maybe<string>[]): Buffer {
  if (values.length === 0) return emptyArray(ELEMENTS.text.oid);
  const lengths = values.map((value) => (value == null ? -1 : Buffer.byteLength(value, 'utf8')));
  let size = HEADER_BYTES;
  for (const length of lengths) size += 4 + Math.max(length, 0);
  const out = header(Buffer.allocUnsafe(size), ELEMENTS.text.oid, values);
  let at = HEADER_BYTES;
  values.forEach((value, index) => {
    const length = lengths[index]!;
    at = out.writeInt32BE(length, at);
    if (value != null) at += out.write(value, at, length, 'utf8');
  });
  return out;
}

function header(out: Buffer, oid: number, values: readonly unknown[]): Buffer {
  out.writeInt32BE(1, 0);
  out.writeInt32BE(values.some((value) => value == null) ? 1 : 0, 4);
  out.writeInt32BE(oid, 8);
  out.writeInt32BE(values.length, 12);
  out.writeInt32BE(1, 16);
  return out;
}

/** No dimensions: how PostgreSQL itself sends an empty array. */
function emptyArray(oid: number): Buffer {
  const out = Buffer.alloc(12);
  out.writeInt32BE(oid, 8);
  return out;
}

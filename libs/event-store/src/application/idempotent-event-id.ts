import { createHash } from 'node:crypto';

/**
 * The id of the index-th event a command appends under an idempotency key: a name-based UUID
 * (version 5 layout), so running the same command again after a crash yields the same ids and the
 * store's unique event id refuses the second copy.
 */
export function idempotentEventId(idempotencyKey: string, index: number): string {
  const bytes = createHash('sha1').update(`${idempotencyKey}\u0000${index}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

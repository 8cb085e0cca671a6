/**
 * A stable partition of a key (FNV-1a over its UTF-8 bytes, modulo the count): the same key lands
 * in the same partition in every process and every release, which is what lets several processes
 * split work by key and agree on who owns what.
 */
export function partitionOf(key: string, count: number): number {
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`A partition count must be a positive integer, got ${count}`);
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % count;
}

/** The name of one partition of a processor: `<name>#<index>/<count>`; one partition keeps the name. */
export function partitionName(name: string, index: number, count: number): string {
  return count === 1 ? name : `${name}#${index}/${count}`;
}

/**
 * Deterministic identifiers for a pure domain: the same stream history always names its batches,
 * sessions and branches the same way, so a replay or a second engine agrees on them. FNV-1a with
 * different offsets gives independent 32-bit words; these are names, not secrets.
 */
const word = (text: string, seed: number): string => {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  // A final avalanche so near-identical inputs differ in every hex digit.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  return (hash >>> 0).toString(16).padStart(8, '0');
};

export const hexDigest = (text: string, length: number): string => {
  let out = '';
  for (let seed = 0; out.length < length; seed++) out += word(text, seed * 0x9e3779b9);
  return out.slice(0, length);
};

/** A version-4-shaped UUID derived from the text. */
export const deterministicUuid = (text: string): string => {
  const raw = hexDigest(text, 32);
  return `${raw.slice(0, 8)}-${raw.slice(8, 12)}-4${raw.slice(13, 16)}-a${raw.slice(17, 20)}-${raw.slice(20, 32)}`;
};

/** `queue_branch_prefix` followed by exactly 10 lowercase hex characters (what cleanup matches). */
export const queueBranchName = (prefix: string, batchId: string, attempt: number): string =>
  `${prefix}${hexDigest(`${batchId}#${attempt}`, 10)}`;

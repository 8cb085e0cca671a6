import { createHash } from 'node:crypto';

/** Namespaces are a handful of constants: their bytes are parsed once, not once per id. */
const namespaceBytes = new Map<string, Buffer>();

/** RFC 9562 name-based UUID, version 5 (SHA-1 of the namespace bytes then the UTF-8 name). */
export function uuid5(name: string, namespace: string): string {
  let prefix = namespaceBytes.get(namespace);
  if (!prefix) {
    prefix = Buffer.from(namespace.replace(/-/g, ''), 'hex');
    namespaceBytes.set(namespace, prefix);
  }
  const hash = createHash('sha1').update(prefix).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether any object in a parsed JSON value has an own `constructor` key. class-transformer takes
 * `value.constructor` of every nested object as the class to instantiate, so `{"x":{"constructor":1}}`
 * would throw deep inside it; Fastify's poisoning check only refuses `constructor.prototype`. No
 * handler could use such a key anyway: class-transformer drops it. One loop with an explicit stack.
 */
export function hasConstructorKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item !== 'object' || item === null) continue;
    if (Array.isArray(item)) {
      pending.push(...item);
      continue;
    }
    if (Object.hasOwn(item, 'constructor')) return true;
    pending.push(...Object.values(item));
  }
  return false;
}

/** Only a text that spells the word, or escapes characters, can hold the key. */
export const mayHoldConstructorKey = (text: string): boolean =>
  text.includes('constructor') || text.includes('\\u');

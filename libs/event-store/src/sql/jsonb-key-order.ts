/**
 * A JSON value with every object's keys in the order PostgreSQL's jsonb keeps them: shorter keys
 * first (by UTF-8 length), then bytewise. An event handed over from memory must be the one a read
 * of the stored jsonb would give, down to the order Object.keys and JSON.stringify see; arrays and
 * scalars are left as they are, and an object already in that order is kept, not copied.
 */
export function inJsonbKeyOrder<T>(value: T): T {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item !== null && typeof item === 'object') value[i] = inJsonbKeyOrder(item);
    }
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const member = object[key];
    if (member !== null && typeof member === 'object') object[key] = inJsonbKeyOrder(member);
  }
  const keys = Object.keys(object);
  if (isInJsonbOrder(keys)) return value;
  // fromEntries defines own properties, so a key such as "__proto__" stays a plain key.
  return Object.fromEntries(keys.sort(compareJsonbKeys).map((key) => [key, object[key]])) as T;
}

function isInJsonbOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (compareJsonbKeys(keys[i - 1]!, keys[i]!) > 0) return false;
  return true;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function compareJsonbKeys(a: string, b: string): number {
  if (isAscii(a) && isAscii(b)) {
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const [left, right] = [Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')];
  return left.length !== right.length ? left.length - right.length : Buffer.compare(left, right);
}

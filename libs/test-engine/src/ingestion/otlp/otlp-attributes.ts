import type { OtlpAnyValue, OtlpKeyValue, OtlpLong } from './otlp-trace-request';

/** Attribute values as the reporters send them: strings, ints (as strings), bools, doubles. */
export type AttributeValue = string | number | boolean;

/** Scalar attributes by key; arrays and maps are not used by any test reporter and are dropped. */
export function attributeMap(attributes: readonly OtlpKeyValue[] | undefined): Map<string, AttributeValue> {
  const map = new Map<string, AttributeValue>();
  for (const { key, value } of attributes ?? []) {
    const scalar = value ? scalarOf(value) : undefined;
    if (scalar !== undefined) map.set(key, scalar);
  }
  return map;
}

function scalarOf(value: OtlpAnyValue): AttributeValue | undefined {
  switch (value.value) {
    case 'stringValue':
      return value.stringValue;
    case 'boolValue':
      return value.boolValue;
    case 'intValue':
      return numberOf(value.intValue);
    case 'doubleValue':
      return value.doubleValue;
    default:
      return undefined;
  }
}

/** Exact up to 2^53, like any number (the high half is signed for int64). */
const numberOf = (value: OtlpLong): number =>
  typeof value === 'number' ? value : value.high * 2 ** 32 + (value.low >>> 0);

/** Attributes read through `get` only: a span's own, falling back on its resource's. */
export type Attributes = Pick<ReadonlyMap<string, AttributeValue>, 'get'>;

export const layered = (own: Attributes, fallback: Attributes): Attributes => ({
  get: (key) => own.get(key) ?? fallback.get(key),
});

/**
 * A string attribute, whatever type the reporter used (`cicd.pipeline.run.id` is an int from the
 * Python tools, a string from the Rust CLI; `code.lineno` the other way round). Empty is absent.
 */
export function text(attributes: Attributes, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = attributes.get(key);
    if (value === undefined) continue;
    const asText = String(value).trim();
    if (asText !== '') return asText;
  }
  return null;
}

export function integer(attributes: Attributes, key: string): number | null {
  const value = attributes.get(key);
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isSafeInteger(parsed) ? parsed : null;
}

export const flag = (attributes: Attributes, key: string): boolean =>
  attributes.get(key) === true || attributes.get(key) === 'true';

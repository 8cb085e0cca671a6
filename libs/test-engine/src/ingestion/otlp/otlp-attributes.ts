import type { OtlpAnyValue, OtlpKeyValue } from './otlp-trace-request';

/** Attribute values as the reporters send them: strings, ints (as strings), bools, doubles. */
export type AttributeValue = string | number | boolean;

/** Scalar attributes by key; arrays and maps are not used by any test reporter and are dropped. */
export function attributeMap(attributes: readonly OtlpKeyValue[] | undefined): Map<string, AttributeValue> {
  const map = new Map<string, AttributeValue>();
  for (const { key, value } of attributes ?? []) {
    const scalar = value && scalarOf(value);
    if (scalar !== undefined) map.set(key, scalar);
  }
  return map;
}

function scalarOf(value: OtlpAnyValue): AttributeValue | undefined {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return undefined;
}

/**
 * A string attribute, whatever type the reporter used (`cicd.pipeline.run.id` is an int from the
 * Python tools, a string from the Rust CLI; `code.lineno` the other way round). Empty is absent.
 */
export function text(attributes: ReadonlyMap<string, AttributeValue>, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = attributes.get(key);
    if (value === undefined) continue;
    const asText = String(value).trim();
    if (asText !== '') return asText;
  }
  return null;
}

export function integer(attributes: ReadonlyMap<string, AttributeValue>, key: string): number | null {
  const value = attributes.get(key);
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isSafeInteger(parsed) ? parsed : null;
}

export const flag = (attributes: ReadonlyMap<string, AttributeValue>, key: string): boolean =>
  attributes.get(key) === true || attributes.get(key) === 'true';

/**
 * OpenAPI 3.0's `nullable: true` beside `allOf`/`anyOf`/`$ref` (and no `type`) means "this, or
 * null"; Ajv only understands `nullable` next to `type`. Rewrites those into `anyOf: [this, null]`.
 */
export function openApiNullable<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item) => openApiNullable(item)) as T;
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = openApiNullable(value);
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _nullable, ...schema } = out;
    return { anyOf: [schema, { type: 'null' }] } as T;
  }
  return out as T;
}

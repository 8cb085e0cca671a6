/**
 * Reads GitHub's OpenAPI 3.0 description the way its authors mean it, for Ajv:
 * - `nullable: true` beside `allOf`/`anyOf`/`$ref` (no `type`) means "this, or null", which Ajv
 *   only understands next to `type`: rewritten as `anyOf: [this, null]`;
 * - `nullable: true` with an `enum` lets null through the enum too (`conclusion` of a check run);
 * - one known defect: some inlined operations (e.g. `GET /app/installations`) say an installation's
 *   `account` is `allOf: [Simple User, Enterprise]`, which nothing can satisfy, where the shared
 *   `installation` component says `anyOf`; read as `anyOf`, as GitHub answers.
 */
export function openApiNullable<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item) => openApiNullable(item)) as T;
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = openApiNullable(value);
  if (isUserOrEnterprise(out.allOf)) {
    out.anyOf = out.allOf;
    delete out.allOf;
  }
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null))
    out.enum = [...out.enum, null];
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _nullable, ...schema } = out;
    return { anyOf: [schema, { type: 'null' }] } as T;
  }
  return out as T;
}

const isUserOrEnterprise = (allOf: unknown): boolean =>
  Array.isArray(allOf) &&
  allOf.length === 2 &&
  (allOf[0] as { title?: unknown })?.title === 'Simple User' &&
  (allOf[1] as { title?: unknown })?.title === 'Enterprise';

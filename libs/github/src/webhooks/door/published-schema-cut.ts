import type { ReadLeaf, ReadTree } from './intake-reads';

/** The parts of GitHub's published webhook description (OpenAPI 3.1) that the cut reads. */
export interface PublishedWebhooks {
  webhooks: Record<string, { post: { 'x-github'?: { subcategory?: string }; requestBody: RequestBody } }>;
  components: { schemas: Record<string, PublishedSchema> };
}

interface RequestBody {
  content: { 'application/json': { schema: PublishedSchema } };
}

export interface PublishedSchema {
  $ref?: string;
  type?: string | string[];
  nullable?: boolean;
  properties?: Record<string, PublishedSchema>;
  required?: string[];
  items?: PublishedSchema;
  allOf?: PublishedSchema[];
  anyOf?: PublishedSchema[];
  oneOf?: PublishedSchema[];
}

/**
 * What the cut keeps: types, the fields read and which of them are required, as GitHub publishes
 * them, and how the intake reads each value (`read`, when not as it is).
 */
export interface CutSchema {
  type?: string[];
  read?: Exclude<ReadLeaf, true | 'optional'>;
  properties?: Record<string, CutSchema>;
  required?: string[];
  items?: CutSchema;
}

/** One way a value may be, once references are followed and allOf merged; `any` when unconstrained. */
interface Shape {
  types: ReadonlySet<string> | 'any';
  properties: ReadonlyMap<string, PublishedSchema>;
  required: ReadonlySet<string>;
  items: readonly PublishedSchema[];
}

/**
 * GitHub's published schema of one event (every action of it) cut down to what the intake reads.
 * A field is required when every action's schema requires it, and takes every type any action's
 * schema gives it. Enumerations and formats are dropped: a value GitHub adds tomorrow must not
 * refuse a delivery, while a type the intake cannot read or a missing required field must (what
 * the intake needs of a value beyond its type is the door's rule, delivery-schemas.ts).
 */
export function cutPublishedSchema(
  published: PublishedWebhooks,
  eventName: string,
  reads: ReadTree,
): CutSchema {
  const roots = Object.values(published.webhooks)
    .filter((webhook) => webhook.post['x-github']?.subcategory === eventName)
    .map((webhook) => webhook.post.requestBody.content['application/json'].schema);
  if (roots.length === 0) throw new Error(`GitHub publishes no schema for the ${eventName} event`);
  const resolver = new Resolver(published.components.schemas);
  return resolver.cut(
    roots.flatMap((root) => resolver.shapes(root)),
    reads,
    eventName,
  );
}

class Resolver {
  constructor(private readonly components: Record<string, PublishedSchema>) {}

  shapes(schema: PublishedSchema, seen: ReadonlySet<string> = new Set()): Shape[] {
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      const target = this.components[name];
      if (!target) throw new Error(`Unknown schema reference ${schema.$ref}`);
      if (seen.has(name)) return [ANY];
      return this.shapes(target, new Set([...seen, name]));
    }
    const own = ownShape(schema);
    let result: Shape[] = [own];
    for (const member of schema.allOf ?? [])
      result = result.flatMap((left) => this.shapes(member, seen).map((right) => merge(left, right)));
    const choices = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
    if (choices.length > 0) {
      const alternatives = choices.flatMap((choice) => this.shapes(choice, seen));
      result = result.flatMap((left) => alternatives.map((right) => merge(left, right)));
    }
    return result;
  }

  cut(shapes: readonly Shape[], reads: ReadTree, path: string): CutSchema {
    const types = unionOfTypes(shapes);
    const typed: CutSchema = types === 'any' ? {} : { type: [...types].sort() };
    if (reads === true) return typed;
    if (reads === 'optional') return types === 'any' ? {} : { type: [...new Set([...types, 'null'])].sort() };
    if (typeof reads === 'string') return { ...typed, read: reads };
    if (Array.isArray(reads)) {
      const arrays = shapes.filter((shape) => shape.types === 'any' || shape.types.has('array'));
      const items = arrays.flatMap((shape) => shape.items.flatMap((item) => this.shapes(item)));
      if (items.length === 0) throw new Error(`GitHub publishes no items for ${path}`);
      return { ...typed, items: this.cut(items, reads[0], `${path}[]`) };
    }
    const objects = shapes.filter((shape) => shape.types === 'any' || shape.types.has('object'));
    const properties: Record<string, CutSchema> = {};
    const required: string[] = [];
    for (const [field, subtree] of Object.entries(reads as Record<string, ReadTree>)) {
      const describing = objects.filter((shape) => shape.properties.has(field));
      if (describing.length === 0) throw new Error(`GitHub publishes no ${path}.${field}`);
      properties[field] = this.cut(
        describing.flatMap((shape) => this.shapes(shape.properties.get(field)!)),
        subtree,
        `${path}.${field}`,
      );
      if (subtree !== 'optional' && objects.every((shape) => shape.required.has(field))) required.push(field);
    }
    return { ...typed, properties, ...(required.length > 0 ? { required } : {}) };
  }
}

const ANY: Shape = { types: 'any', properties: new Map(), required: new Set(), items: [] };

function ownShape(schema: PublishedSchema): Shape {
  const declared = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const types = new Set(declared);
  if (types.size === 0 && schema.properties) types.add('object');
  if (types.size === 0 && schema.items) types.add('array');
  if (schema.nullable) types.add('null');
  return {
    types: types.size === 0 ? 'any' : types,
    properties: new Map(Object.entries(schema.properties ?? {})),
    required: new Set(schema.required ?? []),
    items: schema.items ? [schema.items] : [],
  };
}

/** Both at once (allOf, or a schema beside its own oneOf): types meet, fields and requirements join. */
function merge(left: Shape, right: Shape): Shape {
  const types = meet(left.types, right.types);
  const properties = new Map(left.properties);
  for (const [field, schema] of right.properties)
    properties.set(field, properties.has(field) ? { allOf: [properties.get(field)!, schema] } : schema);
  return {
    types,
    properties,
    required: new Set([...left.required, ...right.required]),
    items: [...left.items, ...right.items],
  };
}

/** The types both allow; `integer` meets `number` as `integer`. */
function meet(left: Shape['types'], right: Shape['types']): Shape['types'] {
  if (left === 'any') return right;
  if (right === 'any') return left;
  const both = new Set([...left].filter((type) => right.has(type)));
  const integer = (one: ReadonlySet<string>, other: ReadonlySet<string>) =>
    one.has('integer') && other.has('number');
  if (integer(left, right) || integer(right, left)) both.add('integer');
  return both;
}

function unionOfTypes(shapes: readonly Shape[]): ReadonlySet<string> | 'any' {
  const types = new Set<string>();
  for (const shape of shapes) {
    if (shape.types === 'any') return 'any';
    for (const type of shape.types) types.add(type);
  }
  return types;
}

import fc from 'fast-check';
import { unstorableCharacterProblem } from '@switchyard/kernel';
import type { CutSchema } from '../webhooks/door/published-schema-cut';

const MIN_INSTANT = new Date('0001-01-01T00:00:00.000Z');
const MAX_INSTANT = new Date('9999-12-31T23:59:59.999Z');

const storableText = fc
  .string({ unit: 'grapheme', maxLength: 12 })
  .filter((text) => unstorableCharacterProblem(text) === null);
const owner = fc.stringMatching(/^[A-Za-z0-9_-]{1,39}$/);
const name = fc.stringMatching(/^[A-Za-z0-9._-]{1,100}$/).filter((text) => text !== '.' && text !== '..');

/**
 * Arbitrary payloads the door lets through, drawn from a cut schema: each type the schema allows,
 * required fields always, others now and then, values in the door's ranges. For properties of the
 * readers: what passes the door must be readable and storable.
 */
export function payloadsOf(schema: CutSchema): fc.Arbitrary<unknown> {
  const types = schema.type ?? ['string', 'integer', 'boolean', 'null', 'object', 'array'];
  return fc.oneof(...types.map((type) => valuesOfType(schema, type)));
}

function valuesOfType(schema: CutSchema, type: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      if (schema.read === 'instant')
        return fc
          .date({ min: MIN_INSTANT, max: MAX_INSTANT, noInvalidDate: true })
          .map((date) => date.toISOString());
      if (schema.read === 'full_name') return fc.tuple(owner, name).map(([o, n]) => `${o}/${n}`);
      return storableText;
    case 'integer':
    case 'number':
      return schema.read === 'number' ? fc.integer({ min: 1, max: 2_147_483_647 }) : fc.maxSafeNat();
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? payloadsOf(schema.items) : fc.constant(null), { maxLength: 3 });
    case 'object': {
      const properties = schema.properties ?? {};
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([field, sub]) => [field, payloadsOf(sub)])),
        { requiredKeys: (schema.required ?? []) as never[] },
      );
    }
    default:
      throw new Error(`No payloads of type ${type}`);
  }
}

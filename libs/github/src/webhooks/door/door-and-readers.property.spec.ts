import fc from 'fast-check';
import { findUnstorableText } from '@switchyard/kernel';
import { factsOfDelivery } from '../facts/facts-of-delivery';
import { DeliverySchemas } from './delivery-schemas';
import type { CutSchema } from './published-schema-cut';
import cut from './intake-schemas.json';
import { payloadsOf } from '../../testing/payloads-of-schema';

describe('what passes the door, the intake can read and store', () => {
  const schemas = new DeliverySchemas();

  it.each(Object.keys(cut.events))('%s', (event) => {
    const schema = (cut.events as Record<string, CutSchema>)[event]!;
    fc.assert(
      fc.property(payloadsOf(schema), (payload) => {
        expect(schemas.check(event, payload)).toEqual({ ok: true });
        const facts = factsOfDelivery(event, payload as Record<string, unknown>);
        if (facts === null) return;
        expect(findUnstorableText(facts)).toBeNull();
        for (const fact of facts.events) expect(JSON.parse(JSON.stringify(fact))).toEqual(fact);
      }),
      { numRuns: 300 },
    );
  });
});

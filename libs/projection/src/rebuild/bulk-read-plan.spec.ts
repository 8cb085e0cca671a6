import type { RecordedEvent } from '@switchyard/event-store';
import { bulkReadPlan } from './bulk-read-plan';

const event = (type: string) => ({ type }) as RecordedEvent;

describe('bulkReadPlan', () => {
  const filter = { eventTypes: ['Opened', 'Closed'] };

  it('reads the feed unfiltered and keeps the wanted types itself when they are most of it', () => {
    const plan = bulkReadPlan(filter, 900, 1000);
    expect(plan.filter).toBeUndefined();
    expect(['Opened', 'Renamed', 'Closed'].map((type) => plan.keep(event(type)))).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('keeps the index-served filter when the wanted types are a small share', () => {
    const plan = bulkReadPlan(filter, 10, 1000);
    expect(plan.filter).toBe(filter);
    expect(plan.keep(event('Renamed'))).toBe(true);
  });

  it('keeps the filter when a count is unknown (EventStoreDB) or the feed is empty', () => {
    expect(bulkReadPlan(filter, null, null).filter).toBe(filter);
    expect(bulkReadPlan(filter, 0, 0).filter).toBe(filter);
  });

  it('keeps a filter on stream categories or prefixes, which a type check alone would not apply', () => {
    const byCategory = { ...filter, streamCategories: ['queue'] };
    expect(bulkReadPlan(byCategory, 900, 1000).filter).toBe(byCategory);
  });

  it('reads everything when the projection has no filter', () => {
    expect(bulkReadPlan(undefined, 1000, null).filter).toBeUndefined();
  });
});

import { SharedFeedReads } from './shared-feed-reads';
import type { ReadAllOptions, ReadAllResult, RecordedEvent } from './types';

const event = (position: string, type: string) => ({ position, type }) as unknown as RecordedEvent;
const FEED = [event('p1', 'a'), event('p2', 'b'), event('p3', 'c'), event('p4', 'a')];

/** A feed of four events, read the way the stores read it; records every read it serves. */
function feed() {
  const reads: ReadAllOptions[] = [];
  const readAll = async (options: ReadAllOptions): Promise<ReadAllResult> => {
    reads.push(options);
    const from = options.after === 'start' ? 0 : FEED.findIndex((e) => e.position === options.after) + 1;
    const types = options.filter?.eventTypes;
    const taken = FEED.slice(from).filter((e) => !types || types.includes(e.type));
    const events = taken.slice(0, options.limit);
    const endOfFeed = events.length === taken.length;
    return { events, endOfFeed, lastPosition: endOfFeed ? 'p4' : events[events.length - 1]!.position };
  };
  return { reads, shared: new SharedFeedReads(readAll), readAll };
}

const positions = (result: ReadAllResult) => result.events.map((e) => e.position);

describe('SharedFeedReads', () => {
  it('serves the reads of one turn at one place with one read, each with the events its filter takes', async () => {
    const { reads, shared } = feed();
    const [a, c] = await Promise.all([
      shared.read({ after: 'start', limit: 10, filter: { eventTypes: ['a'] } }),
      shared.read({ after: 'start', limit: 10, filter: { eventTypes: ['c'] } }),
    ]);
    expect(reads).toEqual([{ after: 'start', limit: 10, filter: { eventTypes: ['a', 'c'] } }]);
    expect(positions(a)).toEqual(['p1', 'p4']);
    expect(positions(c)).toEqual(['p3']);
    expect([a.endOfFeed, a.lastPosition, c.endOfFeed, c.lastPosition]).toEqual([true, 'p4', true, 'p4']);
  });

  it('gives each the page it would have read alone, also when the shared page is cut by the limit', async () => {
    const { shared, readAll } = feed();
    const asks: ReadAllOptions[] = [
      { after: 'start', limit: 2, filter: { eventTypes: ['a'] } },
      { after: 'start', limit: 2, filter: { eventTypes: ['b', 'c'] } },
    ];
    const together = await Promise.all(asks.map((ask) => shared.read(ask)));
    // Alone, a reader may get more of its own events per page; together it reads on from where
    // the shared page ended, and never past an event it wants.
    for (const [i, ask] of asks.entries()) {
      const alone = await readAll(ask);
      expect(positions(together[i]!)).toEqual(positions(alone).filter((p) => p <= together[i]!.lastPosition));
      expect(together[i]!.endOfFeed).toBe(false);
      expect(together[i]!.lastPosition).toBe('p2');
    }
  });

  it('reads near the head only when every reader sharing the read is near it', async () => {
    const { reads, shared } = feed();
    const types = (type: string) => ({ after: 'p1' as const, limit: 10, filter: { eventTypes: [type] } });
    await Promise.all([shared.read({ ...types('a'), nearHead: true }), shared.read(types('c'))]);
    await Promise.all([
      shared.read({ ...types('a'), after: 'p2', nearHead: true }),
      shared.read({ ...types('c'), after: 'p2', nearHead: true }),
    ]);
    expect(reads.map((read) => read.nearHead)).toEqual([undefined, true]);
  });

  it('reads everything for all when one of them takes every type', async () => {
    const { reads, shared } = feed();
    const [all, a] = await Promise.all([
      shared.read({ after: 'p1', limit: 10 }),
      shared.read({ after: 'p1', limit: 10, filter: { eventTypes: ['a'] } }),
    ]);
    expect(reads).toEqual([{ after: 'p1', limit: 10, filter: undefined }]);
    expect(positions(all)).toEqual(['p2', 'p3', 'p4']);
    expect(positions(a)).toEqual(['p4']);
  });

  it('reads apart what differs in place or limit, and what is filtered by stream', async () => {
    const { reads, shared } = feed();
    await Promise.all([
      shared.read({ after: 'start', limit: 10, filter: { eventTypes: ['a'] } }),
      shared.read({ after: 'p1', limit: 10, filter: { eventTypes: ['a'] } }),
      shared.read({ after: 'start', limit: 5, filter: { eventTypes: ['a'] } }),
      shared.read({ after: 'start', limit: 10, filter: { streamCategories: ['queue'] } }),
    ]);
    expect(reads).toHaveLength(4);
  });
});

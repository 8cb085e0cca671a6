import { WrongExpectedRevisionError } from '../errors';
import type { EventStore, ExpectedRevision, NewEvent, RecordedEvent } from '../types';
import { StreamNames, SubscriptionProbe, events, newEvent } from './contract-helpers';

const RACERS = 10;
const WRITERS = 8;
const APPENDS_PER_WRITER = 40;
const BUSY_STREAMS = 5;

/**
 * Concurrency guarantees (architecture-anchors §2.7, §4): optimistic concurrency holds under racing
 * writers, and a live subscriber sees every event exactly once with each stream in revision order,
 * which is what the (transaction id, position) feed and the lock-first append exist for.
 */
export function describeConcurrencyContract(store: () => EventStore, names: StreamNames): void {
  describe('concurrency', () => {
    const race = async (stream: string, expectedRevision: ExpectedRevision) => {
      const batches = Array.from({ length: RACERS }, (_, i) => [newEvent('Raced', { i })]);
      const results = await Promise.allSettled(
        batches.map((batch) => store().appendToStream(stream, batch, { expectedRevision })),
      );
      const winners = results.flatMap((result, i) =>
        result.status === 'fulfilled' ? [batches[i]![0]!] : [],
      );
      const losers = results.flatMap((result) =>
        result.status === 'rejected' ? [result.reason as unknown] : [],
      );
      return { winners, losers };
    };

    it(`of ${RACERS} concurrent appends at the same revision exactly one wins`, async () => {
      const stream = names.next('race');
      await store().appendToStream(stream, events(1), { expectedRevision: 'no_stream' });

      const { winners, losers } = await race(stream, 0n);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(RACERS - 1);
      for (const loser of losers) {
        expect(loser).toBeInstanceOf(WrongExpectedRevisionError);
        expect((loser as WrongExpectedRevisionError).actual).toBe(1n);
      }
      const read = await store().readStream(stream);
      expect(read.events.map((e) => e.eventId)[1]).toBe(winners[0]!.eventId);
      expect(read.revision).toBe(1n);
    });

    it(`of ${RACERS} concurrent creators of one stream exactly one wins`, async () => {
      const stream = names.next('create');
      const { winners, losers } = await race(stream, 'no_stream');
      expect(winners).toHaveLength(1);
      for (const loser of losers) {
        expect(loser).toBeInstanceOf(WrongExpectedRevisionError);
        expect((loser as WrongExpectedRevisionError).actual).toBe(0n);
      }
      expect((await store().readStream(stream)).events.map((e) => e.eventId)).toEqual([winners[0]!.eventId]);
    });

    it('concurrent writers with a live subscriber: every event once, nothing missing, streams in order', () =>
      writersWithLiveSubscriber(store(), `${names.run}busy`));
  });
}

/**
 * WRITERS concurrent writers on BUSY_STREAMS streams, each appending APPENDS_PER_WRITER batches,
 * with a live subscriber from the start of the feed: it must deliver each of their events exactly
 * once, every stream in revision order, and the feed in position order.
 */
export async function writersWithLiveSubscriber(store: EventStore, prefix: string): Promise<void> {
  const streams = Array.from({ length: BUSY_STREAMS }, (_, i) => `${prefix}${i}-s`);
  const written: string[] = [];
  for (const stream of streams) {
    const seed = newEvent('Seeded');
    await store.appendToStream(stream, [seed], { expectedRevision: 'no_stream' });
    written.push(seed.eventId!);
  }

  const sentinel = newEvent('Sentinel');
  const delivered: RecordedEvent[] = [];
  const probe = new SubscriptionProbe(store, { after: 'start', batchSize: 50 });
  const subscriber = probe
    .takeUntil((item) => {
      if (item.kind === 'event') delivered.push(item.event);
      return item.kind === 'event' && item.event.eventId === sentinel.eventId;
    })
    .finally(() => probe.stop());

  const writer = async (w: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < APPENDS_PER_WRITER; i++) {
      const batch: NewEvent[] =
        i % 4 === 3
          ? [0, 1, 2].map((part) => newEvent('Busy', { w, i, part }))
          : [newEvent('Busy', { w, i })];
      // Odd writers lock an existing row; even ones take the create-or-append path.
      const expectedRevision = w % 2 ? 'stream_exists' : 'any';
      await store.appendToStream(streams[(w * 3 + i) % BUSY_STREAMS]!, batch, { expectedRevision });
      ids.push(...batch.map((e) => e.eventId!));
    }
    return ids;
  };
  written.push(...(await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)))).flat());
  // Appended after every writer finished, so it comes last in the feed: seeing it means done.
  await store.appendToStream(`${prefix}end-s`, [sentinel], { expectedRevision: 'no_stream' });
  await subscriber;

  for (let i = 1; i < delivered.length; i++) {
    expect(delivered[i]!.position > delivered[i - 1]!.position).toBe(true);
  }
  const ours = delivered.filter((e) => streams.includes(e.streamId));
  const counts = new Map<string, number>();
  for (const event of ours) counts.set(event.eventId, (counts.get(event.eventId) ?? 0) + 1);
  expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
  expect([...counts.keys()].sort()).toEqual([...written].sort());
  expect(ours).toHaveLength(BUSY_STREAMS + WRITERS * APPENDS_PER_WRITER * 1.5);

  for (const stream of streams) {
    const inDeliveryOrder = ours.filter((e) => e.streamId === stream);
    expect(inDeliveryOrder.map((e) => e.revision)).toEqual(inDeliveryOrder.map((_, i) => BigInt(i)));
    const stored = await store.readStream(stream);
    expect(inDeliveryOrder.map((e) => e.eventId)).toEqual(stored.events.map((e) => e.eventId));
  }
}

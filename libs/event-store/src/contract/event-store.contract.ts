import { randomUUID } from 'node:crypto';
import { DuplicateEventError, EmptyAppendError, WrongExpectedRevisionError } from '../errors';
import { matchesFilter } from '../filter';
import { streamCategory } from '../stream-category';
import type { EventFilter, EventStore, Position, RecordedEvent } from '../types';
import { EventSchemas } from '../upcasting';
import {
  StreamNames,
  SubscriptionProbe,
  events,
  eventsOf,
  newEvent,
  rejectionOf,
  untilSettled,
} from './contract-helpers';
import { describeConcurrencyContract } from './concurrency.contract';
import { describeBystanderContract } from './bystander.contract';
import type { Bystander } from '@switchyard/testing';

export interface OpenedStore {
  store: EventStore;
  close(): Promise<void>;
}

export interface ContractOptions {
  /**
   * Whether an event id already stored anywhere is refused with DuplicateEventError. EventStoreDB
   * only de-duplicates recent writes to the same stream, so its adapter cannot promise this.
   */
  uniqueEventIds?: boolean;
  /** Whether countEvents answers with a number (EventStoreDB answers null). */
  countsEvents?: boolean;
  /**
   * Transactions that have nothing to do with the store and can be held open beside it (a server
   * shared with other databases and tables); none where the store has no such neighbours.
   */
  bystanders?: readonly Bystander[];
}

/**
 * The behaviour every EventStore adapter must share (architecture-anchors §2.2, §2.7). One store is
 * opened per suite and shared by its tests, which use stream names of their own; `open` receives
 * the schema registry the store must consult on every read and write, so a test can register an
 * upcaster mid-run as a new deployment would.
 */
export function describeEventStoreContract(
  name: string,
  open: (schemas?: EventSchemas) => Promise<OpenedStore>,
  options: ContractOptions = {},
): void {
  const { uniqueEventIds = true, countsEvents = true, bystanders = [] } = options;

  describe(`EventStore contract: ${name}`, () => {
    const schemas = new EventSchemas();
    const names = new StreamNames();
    let opened: OpenedStore;
    let store: EventStore;

    beforeAll(async () => {
      opened = await open(schemas);
      store = opened.store;
    });
    afterAll(async () => {
      await opened?.close();
    });

    const wrongRevision = async (promise: Promise<unknown>): Promise<WrongExpectedRevisionError> => {
      const error = await rejectionOf(promise);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      return error as WrongExpectedRevisionError;
    };

    describe('expected revision', () => {
      it("'no_stream' creates the stream and then conflicts with the actual revision", async () => {
        const stream = names.next('nostream');
        const created = await store.appendToStream(stream, events(2), { expectedRevision: 'no_stream' });
        expect(created).toMatchObject({ nextExpectedRevision: 1n, createdStream: true });

        const error = await wrongRevision(
          store.appendToStream(stream, events(1), { expectedRevision: 'no_stream' }),
        );
        expect(error).toMatchObject({ streamId: stream, expected: 'no_stream', actual: 1n });
      });

      it('a bigint must equal the revision of the last event', async () => {
        const stream = names.next('bigint');
        const missing = await wrongRevision(
          store.appendToStream(stream, events(1), { expectedRevision: 0n }),
        );
        expect(missing.actual).toBe(-1n);

        await store.appendToStream(stream, events(2), { expectedRevision: 'no_stream' });
        const next = await store.appendToStream(stream, events(1), { expectedRevision: 1n });
        expect(next).toMatchObject({ nextExpectedRevision: 2n, createdStream: false });

        const stale = await wrongRevision(store.appendToStream(stream, events(1), { expectedRevision: 1n }));
        expect(stale).toMatchObject({ streamId: stream, expected: '1', actual: 2n });
        const ahead = await wrongRevision(store.appendToStream(stream, events(1), { expectedRevision: 7n }));
        expect(ahead.actual).toBe(2n);
        expect((await store.readStream(stream)).revision).toBe(2n);
      });

      it("'stream_exists' refuses a missing stream and appends to an existing one", async () => {
        const stream = names.next('exists');
        const error = await wrongRevision(
          store.appendToStream(stream, events(1), { expectedRevision: 'stream_exists' }),
        );
        expect(error).toMatchObject({ expected: 'stream_exists', actual: -1n });
        expect((await store.readStream(stream)).exists).toBe(false);

        await store.appendToStream(stream, events(1), { expectedRevision: 'no_stream' });
        const result = await store.appendToStream(stream, events(3), { expectedRevision: 'stream_exists' });
        expect(result.nextExpectedRevision).toBe(3n);
      });

      it("'any' creates or appends regardless of the revision", async () => {
        const stream = names.next('any');
        const first = await store.appendToStream(stream, events(1), { expectedRevision: 'any' });
        expect(first).toMatchObject({ nextExpectedRevision: 0n, createdStream: true });
        const second = await store.appendToStream(stream, events(2), { expectedRevision: 'any' });
        expect(second).toMatchObject({ nextExpectedRevision: 2n, createdStream: false });
      });

      it('an empty batch is refused', async () => {
        const error = await rejectionOf(
          store.appendToStream(names.next('empty'), [], { expectedRevision: 'any' }),
        );
        expect(error).toBeInstanceOf(EmptyAppendError);
      });
    });

    describe('readStream', () => {
      it('reports a missing stream as not existing, at revision -1, without throwing', async () => {
        await expect(store.readStream(names.next('missing'))).resolves.toEqual({
          exists: false,
          revision: -1n,
          events: [],
        });
      });

      it('returns what was appended, in revision order, with contiguous revisions', async () => {
        const stream = names.next('read');
        // More than ten events: revision 10 must come after 9, not after 1 as text would sort it.
        const written = [
          newEvent('Opened', { by: 'ada' }, { correlationId: 'corr-1', actor: 'ada' }),
          ...events(11),
        ];
        const result = await store.appendToStream(stream, written, { expectedRevision: 'no_stream' });

        const read = await store.readStream(stream);
        expect(read.exists).toBe(true);
        expect(read.revision).toBe(11n);
        expect(read.events.map((e) => e.revision)).toEqual(written.map((_, i) => BigInt(i)));
        expect(read.events.map((e) => e.eventId)).toEqual(written.map((e) => e.eventId));
        const [opening] = read.events;
        expect(opening).toMatchObject({
          streamId: stream,
          type: 'Opened',
          data: { by: 'ada' },
          metadata: { correlationId: 'corr-1', actor: 'ada' },
          schemaVersion: 1,
        });
        expect(opening!.recordedAt).toBeInstanceOf(Date);
        expect(read.events[read.events.length - 1]!.position).toBe(result.lastPosition);
        expectIncreasing(read.events.map((e) => e.position));
      });

      it('reads a window from a revision, and still reports the stream revision', async () => {
        const stream = names.next('window');
        const written = events(6);
        await store.appendToStream(stream, written, { expectedRevision: 'no_stream' });

        const window = await store.readStream(stream, { fromRevision: 2n, maxCount: 3 });
        expect(window.revision).toBe(5n);
        expect(window.events.map((e) => e.eventId)).toEqual(written.slice(2, 5).map((e) => e.eventId));
        const beyond = await store.readStream(stream, { fromRevision: 6n });
        expect(beyond).toMatchObject({ exists: true, revision: 5n, events: [] });
      });
    });

    describe('event ids', () => {
      it('an exact replay of a batch at the same revision succeeds without writing it twice', async () => {
        const stream = names.next('replay');
        const first = events(2);
        const created = await store.appendToStream(stream, first, { expectedRevision: 'no_stream' });
        const second = events(2);
        const appended = await store.appendToStream(stream, second, { expectedRevision: 1n });

        await expect(
          store.appendToStream(stream, first, { expectedRevision: 'no_stream' }),
        ).resolves.toMatchObject({
          nextExpectedRevision: created.nextExpectedRevision,
          lastPosition: created.lastPosition,
        });
        await expect(store.appendToStream(stream, second, { expectedRevision: 1n })).resolves.toMatchObject({
          nextExpectedRevision: appended.nextExpectedRevision,
          lastPosition: appended.lastPosition,
        });
        const read = await store.readStream(stream);
        expect(read.events.map((e) => e.eventId)).toEqual([...first, ...second].map((e) => e.eventId));
      });

      if (uniqueEventIds) {
        it('an id already stored, in this stream or another, is refused and nothing is written', async () => {
          const stored = newEvent('Once');
          const stream = names.next('dup');
          await store.appendToStream(stream, [stored], { expectedRevision: 'no_stream' });

          const other = names.next('dupother');
          const elsewhere = await rejectionOf(
            store.appendToStream(other, [newEvent('Fresh'), stored], { expectedRevision: 'any' }),
          );
          expect(elsewhere).toBeInstanceOf(DuplicateEventError);
          expect((elsewhere as DuplicateEventError).eventIds).toContain(stored.eventId);
          expect((await store.readStream(other)).exists).toBe(false);

          // Re-sending the stored event alone is the idempotent replay; mixing it with a new one is not.
          await expect(
            store.appendToStream(stream, [stored], { expectedRevision: 'any' }),
          ).resolves.toMatchObject({
            nextExpectedRevision: 0n,
          });
          const mixed = await rejectionOf(
            store.appendToStream(stream, [newEvent('Fresh'), stored], { expectedRevision: 'any' }),
          );
          expect(mixed).toBeInstanceOf(DuplicateEventError);
          expect((await store.readStream(stream)).revision).toBe(0n);
        });

        it('the same id twice in one batch is refused', async () => {
          const twice = newEvent('Twice');
          const stream = names.next('dupbatch');
          const error = await rejectionOf(
            store.appendToStream(stream, [twice, { ...twice }], { expectedRevision: 'no_stream' }),
          );
          expect(error).toBeInstanceOf(DuplicateEventError);
          expect((await store.readStream(stream)).exists).toBe(false);
        });
      }
    });

    describe('readAll', () => {
      it('pages through the feed with an exclusive `after`, in append order, each event once', async () => {
        const before = await startOfNewEvents(store);
        const streams = [names.next('pageA'), names.next('pageB'), names.next('pageC')];
        const appended: string[] = [];
        let lastAppend: Position = '';
        for (let i = 0; i < 25; i++) {
          const event = newEvent('Paged', { i });
          lastAppend = (await store.appendToStream(streams[i % 3]!, [event], { expectedRevision: 'any' }))
            .lastPosition;
          appended.push(event.eventId!);
        }
        await untilSettled(store, lastAppend);

        const pages: RecordedEvent[][] = [];
        let after = before;
        for (;;) {
          const page = await store.readAll({ after, limit: 10 });
          pages.push(page.events);
          expect(page.events.length).toBeLessThanOrEqual(10);
          if (after !== 'start' && page.events[0]) expect(page.events[0].position > after).toBe(true);
          after = page.lastPosition;
          if (page.endOfFeed) break;
          expect(page.events).toHaveLength(10);
          expect(page.lastPosition).toBe(page.events[9]!.position);
        }
        expect(pages.map((page) => page.length).slice(0, 3)).toEqual([10, 10, 5]);
        const all = pages.flat();
        expect(all.map((e) => e.eventId)).toEqual(appended);
        expectIncreasing(all.map((e) => e.position));

        const middle = all[11]!;
        const fromMiddle = await store.readAll({ after: middle.position, limit: 1 });
        expect(fromMiddle.events.map((e) => e.eventId)).toEqual([appended[12]]);
        expect(fromMiddle.endOfFeed).toBe(false);
      });

      it('when exhausted, lastPosition is the settled head even if the filter skipped the tail', async () => {
        const before = await startOfNewEvents(store);
        const type = `${names.run}Kept`;
        const stream = names.next('tail');
        await store.appendToStream(stream, [newEvent(type), newEvent(type)], {
          expectedRevision: 'no_stream',
        });
        const last = await store.appendToStream(stream, events(3, 'SkippedTail'), { expectedRevision: 1n });
        await untilSettled(store, last.lastPosition);

        const page = await store.readAll({ after: before, limit: 100, filter: { eventTypes: [type] } });
        expect(page.events.map((e) => e.type)).toEqual([type, type]);
        expect(page.endOfFeed).toBe(true);
        expect(page.lastPosition).toBe(last.lastPosition);
        expect(await store.headPosition()).toBe(last.lastPosition);

        const again = await store.readAll({
          after: page.lastPosition,
          limit: 100,
          filter: { eventTypes: [type] },
        });
        expect(again).toEqual({ events: [], lastPosition: last.lastPosition, endOfFeed: true });
      });

      it('filters by event type and by stream prefix, prefixes taken literally', async () => {
        const before = await startOfNewEvents(store);
        const prefix = `${names.run}_p%`;
        const literal = `${prefix}one`;
        // Would match if '_' or '%' in the prefix acted as LIKE wildcards.
        const underscoreDecoy = `${names.run}Xp%one`;
        const percentDecoy = `${names.run}_pZZ`;
        await store.appendToStream(literal, [newEvent('Red'), newEvent('Blue')], { expectedRevision: 'any' });
        await store.appendToStream(underscoreDecoy, [newEvent('Red')], { expectedRevision: 'any' });
        const lastDecoy = await store.appendToStream(percentDecoy, [newEvent('Red')], {
          expectedRevision: 'any',
        });
        await untilSettled(store, lastDecoy.lastPosition);

        const read = async (filter: { eventTypes?: string[]; streamPrefixes?: string[] }) =>
          (await store.readAll({ after: before, limit: 100, filter })).events.map(
            (e) => `${e.streamId}/${e.type}`,
          );

        expect(await read({ streamPrefixes: [prefix] })).toEqual([`${literal}/Red`, `${literal}/Blue`]);
        expect(await read({ streamPrefixes: [prefix], eventTypes: ['Red'] })).toEqual([`${literal}/Red`]);
        expect(await read({ eventTypes: ['Red'] })).toEqual([
          `${literal}/Red`,
          `${underscoreDecoy}/Red`,
          `${percentDecoy}/Red`,
        ]);
        expect(await read({ streamPrefixes: [percentDecoy, underscoreDecoy] })).toEqual([
          `${underscoreDecoy}/Red`,
          `${percentDecoy}/Red`,
        ]);
        expect(await read({ eventTypes: ['Green'] })).toEqual([]);
      });
    });

    describe('filtered feeds', () => {
      /** Three categories, three types, interleaved over several appends, some batched. */
      const seedMixedFeed = async () => {
        const before = await startOfNewEvents(store);
        const [red, blue, grey] = ['Red', 'Blue', 'Grey'].map((colour) => `${names.run}${colour}`);
        const categories = ['mixa', 'mixb', 'mixc'].map((label) => names.next(label).split('-')[0]!);
        let last: Position = '';
        for (let i = 0; i < 24; i++) {
          const stream = `${categories[i % 3]}-${i % 2}`;
          const batch =
            i % 5 === 4
              ? [newEvent(red, { i }), newEvent(grey, { i })]
              : [newEvent([red, blue, grey][i % 3]!, { i })];
          last = (await store.appendToStream(stream, batch, { expectedRevision: 'any' })).lastPosition;
        }
        await untilSettled(store, last);
        const everything = (await store.readAll({ after: before, limit: 1000 })).events;
        return { before, red, blue, grey, categories, everything, last };
      };

      /** Pages of `limit` through the filtered feed, checking each page's bounds. */
      const readFiltered = async (after: Position | 'start', filter: EventFilter, limit: number) => {
        const read: RecordedEvent[] = [];
        for (;;) {
          const page = await store.readAll({ after, limit, filter });
          expect(page.events.length).toBeLessThanOrEqual(limit);
          read.push(...page.events);
          after = page.lastPosition;
          if (page.endOfFeed) return { read, lastPosition: page.lastPosition };
          expect(page.events).toHaveLength(limit);
        }
      };

      it('by several event types: the matching events in feed order, each once, across pages', async () => {
        const { before, red, blue, everything, last } = await seedMixedFeed();
        const filter = { eventTypes: [blue, red, red] };
        const { read, lastPosition } = await readFiltered(before, filter, 4);
        const expected = everything.filter((e) => e.type === red || e.type === blue);
        expect(expected.length).toBeGreaterThan(8);
        expect(read.map((e) => e.eventId)).toEqual(expected.map((e) => e.eventId));
        expectIncreasing(read.map((e) => e.position));
        expect(lastPosition).toBe(last);
      });

      it('by stream category, alone or with event types and prefixes', async () => {
        const { before, red, grey, categories, everything } = await seedMixedFeed();
        const [a, b] = categories as [string, string];
        const cases: Array<[EventFilter, (e: RecordedEvent) => boolean]> = [
          [
            { streamCategories: [b, a] },
            (e) => e.streamId.startsWith(`${a}-`) || e.streamId.startsWith(`${b}-`),
          ],
          [
            { streamCategories: [a], eventTypes: [red, grey] },
            (e) => e.streamId.startsWith(`${a}-`) && e.type !== `${names.run}Blue`,
          ],
          [{ streamCategories: [a, b], streamPrefixes: [`${b}-1`] }, (e) => e.streamId === `${b}-1`],
          [{ streamCategories: [`${a}-0`] }, () => false],
          [{ eventTypes: [] }, () => false],
        ];
        for (const [filter, wanted] of cases) {
          const { read } = await readFiltered(before, filter, 3);
          expect(read.map((e) => e.eventId)).toEqual(everything.filter(wanted).map((e) => e.eventId));
          expect(everything.filter(wanted).every((e) => matchesFilter(e, filter))).toBe(true);
        }
      });

      it('a stream id without a separator is a category of its own', async () => {
        const before = await startOfNewEvents(store);
        const loner = `${names.run}loner`;
        await store.appendToStream(`${loner}-1`, events(1), { expectedRevision: 'no_stream' });
        const last = await store.appendToStream(loner, events(2), { expectedRevision: 'no_stream' });
        await untilSettled(store, last.lastPosition);
        expect(streamCategory(loner)).toBe(loner);
        const { read } = await readFiltered(before, { streamCategories: [loner] }, 10);
        expect(read.map((e) => e.streamId)).toEqual([`${loner}-1`, loner, loner]);
      });

      it('a filtered subscription delivers the merged types in feed order, then live ones', async () => {
        const { before, red, blue, everything, last } = await seedMixedFeed();
        const probe = new SubscriptionProbe(store, {
          after: before,
          filter: { eventTypes: [red, blue] },
          batchSize: 4,
        });
        try {
          const caughtUp = eventsOf(await probe.takeUntilCaughtUpAt(last));
          expect(caughtUp.map((e) => e.eventId)).toEqual(
            everything.filter((e) => e.type === red || e.type === blue).map((e) => e.eventId),
          );
          const live = newEvent(blue);
          await store.appendToStream(names.next('mixlive'), [newEvent('Unwanted'), live], {
            expectedRevision: 'no_stream',
          });
          const [next] = eventsOf(await probe.takeUntil((item) => item.kind === 'event'));
          expect(next!.eventId).toBe(live.eventId);
        } finally {
          await probe.stop();
        }
      });
    });

    describe('headPosition and countEvents', () => {
      it('headPosition is the position of the newest event', async () => {
        const first = await store.appendToStream(names.next('head'), events(2), { expectedRevision: 'any' });
        await untilSettled(store, first.lastPosition);
        expect(await store.headPosition()).toBe(first.lastPosition);
        const second = await store.appendToStream(names.next('head'), events(1), { expectedRevision: 'any' });
        expect(second.lastPosition > first.lastPosition).toBe(true);
        await untilSettled(store, second.lastPosition);
        expect(await store.headPosition()).toBe(second.lastPosition);
      });

      if (countsEvents) {
        it('countEvents counts the events a filter selects', async () => {
          await startOfNewEvents(store);
          const total = await store.countEvents();
          const prefix = `${names.run}count`;
          const type = `${names.run}Counted`;
          await store.appendToStream(`${prefix}-a`, [newEvent(type), newEvent('Other'), newEvent(type)], {
            expectedRevision: 'any',
          });
          const lastCounted = await store.appendToStream(`${prefix}-b`, [newEvent(type)], {
            expectedRevision: 'any',
          });
          await untilSettled(store, lastCounted.lastPosition);

          expect(await store.countEvents()).toBe(total! + 4);
          expect(await store.countEvents({ streamPrefixes: [prefix] })).toBe(4);
          expect(await store.countEvents({ streamCategories: [prefix] })).toBe(4);
          expect(await store.countEvents({ streamCategories: [prefix], eventTypes: [type] })).toBe(3);
          expect(await store.countEvents({ eventTypes: [type] })).toBe(3);
          expect(await store.countEvents({ eventTypes: [type], streamPrefixes: [`${prefix}-b`] })).toBe(1);
        });
      } else {
        it('countEvents says it cannot count', async () => {
          await expect(store.countEvents({ eventTypes: ['Anything'] })).resolves.toBeNull();
        });
      }
    });

    describe('subscribeToAll', () => {
      it('delivers the backlog, reports caughtUp at the head, then delivers live events', async () => {
        const before = await startOfNewEvents(store);
        const stream = names.next('live');
        const backlog = await store.appendToStream(stream, events(3), { expectedRevision: 'no_stream' });
        const probe = new SubscriptionProbe(store, { after: before });
        try {
          const caughtUp = await probe.takeUntilCaughtUpAt(backlog.lastPosition);
          expect(eventsOf(caughtUp).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
          expect(caughtUp[caughtUp.length - 1]).toEqual({ kind: 'caughtUp', position: backlog.lastPosition });

          const live = await store.appendToStream(stream, events(2), { expectedRevision: 2n });
          const more = await probe.takeUntil(
            (item) => item.kind === 'event' && item.event.position === live.lastPosition,
          );
          expect(eventsOf(more).map((e) => `${e.streamId}@${e.revision}`)).toEqual([
            `${stream}@3`,
            `${stream}@4`,
          ]);
        } finally {
          await probe.stop();
        }
      });

      it("a filtered subscription's caughtUp is the head even when the tail did not match", async () => {
        const before = await startOfNewEvents(store);
        const type = `${names.run}Wanted`;
        const stream = names.next('subfilter');
        await store.appendToStream(stream, [newEvent(type)], { expectedRevision: 'no_stream' });
        const last = await store.appendToStream(stream, events(2, 'Unwanted'), { expectedRevision: 0n });
        await untilSettled(store, last.lastPosition);

        const probe = new SubscriptionProbe(store, { after: before, filter: { eventTypes: [type] } });
        try {
          const items = await probe.takeUntil((item) => item.kind === 'caughtUp');
          expect(eventsOf(items).map((e) => e.type)).toEqual([type]);
          expect(items[items.length - 1]).toEqual({ kind: 'caughtUp', position: last.lastPosition });
        } finally {
          await probe.stop();
        }
      });

      it('aborting the signal ends the iteration, even while it waits for new events', async () => {
        const before = await startOfNewEvents(store);
        const appended = await store.appendToStream(names.next('abort'), events(1), {
          expectedRevision: 'any',
        });
        const probe = new SubscriptionProbe(store, { after: before });
        await probe.takeUntilCaughtUpAt(appended.lastPosition);

        // Nothing new to deliver: this next() parks until an append, a poll, or the abort.
        const waiting = probe.next();
        await probe.stop();
        await expect(waiting).resolves.toMatchObject({ done: true });
        await store.appendToStream(names.next('abort'), events(1), { expectedRevision: 'any' });
        await expect(probe.next()).resolves.toMatchObject({ done: true });
      });
    });

    describe('upcasting', () => {
      it('reads events stored at an old schema version upcast, and writes new ones at the current version', async () => {
        const before = await startOfNewEvents(store);
        const type = `${names.run}Renamed`;
        const stream = names.next('upcast');
        await store.appendToStream(stream, [newEvent(type, { name: 'Ada' })], {
          expectedRevision: 'no_stream',
        });
        // The next deployment ships an upcaster: from now on version 2 is current.
        schemas.register({
          type,
          fromVersion: 1,
          upcast: (data) => ({ fullName: (data as { name: string }).name }),
        });
        const { lastPosition } = await store.appendToStream(stream, [newEvent(type, { fullName: 'Grace' })], {
          expectedRevision: 0n,
        });

        const expected = [
          { schemaVersion: 2, data: { fullName: 'Ada' } },
          // Had it been stored as version 1, the upcaster would have turned it into { fullName: undefined }.
          { schemaVersion: 2, data: { fullName: 'Grace' } },
        ];
        expect((await store.readStream(stream)).events).toMatchObject(expected);
        // Another worker's open transaction may hold the settled feed behind the append for a moment.
        await untilSettled(store, lastPosition);
        const all = await store.readAll({ after: before, limit: 100, filter: { eventTypes: [type] } });
        expect(all.events).toMatchObject(expected);
        const probe = new SubscriptionProbe(store, { after: before, filter: { eventTypes: [type] } });
        try {
          expect(eventsOf(await probe.takeUntil((item) => item.kind === 'caughtUp'))).toMatchObject(expected);
        } finally {
          await probe.stop();
        }
      });
    });

    describeConcurrencyContract(() => store, names);
    if (bystanders.length > 0) describeBystanderContract(() => store, names, startOfNewEvents, bystanders);
  });
}

/**
 * Where a test's own events begin: everything earlier tests appended is behind this position. A
 * marker event is appended and waited for, because the head alone may not yet include an earlier
 * test's last append while some other session's transaction is open.
 */
export async function startOfNewEvents(store: EventStore): Promise<Position | 'start'> {
  const marker = await store.appendToStream(`contractmarker-${randomUUID()}`, [newEvent('ContractMarker')], {
    expectedRevision: 'no_stream',
  });
  await untilSettled(store, marker.lastPosition);
  return marker.lastPosition;
}

export function expectIncreasing(positions: readonly Position[]): void {
  for (let i = 1; i < positions.length; i++) expect(positions[i]! > positions[i - 1]!).toBe(true);
}

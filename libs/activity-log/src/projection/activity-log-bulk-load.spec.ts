import type { Position, RecordedEvent } from '@switchyard/event-store';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { readActiveGeneration, rebuildBlueGreen } from '@switchyard/projection';
import type { SqlExecutor } from '@switchyard/sql';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import type { LogMapping } from '@switchyard/activity-log-contract';
import { describeEachDatabase, untilSettled } from '@switchyard/testing';
import { queueWorkload } from '@switchyard/merge-queue/testing';
import { RecordedEventFeed } from '../testing/recorded-events';
import { createActivityLogProjection } from './activity-log-projection';
import { ACTIVITY_LOG_TABLES } from './activity-log-schema';

const from = new Date('2026-07-01T00:00:00Z');
const to = new Date('2026-07-04T00:00:00Z');

const inBatches = async (
  events: RecordedEvent[],
  size: number,
  apply: (batch: RecordedEvent[]) => Promise<void>,
) => {
  for (let i = 0; i < events.length; i += size) await apply(events.slice(i, i + size));
};

/** Records whose text holds what COPY's text format escapes, and JSON that needs escaping too. */
const awkwardMapping: LogMapping = {
  'test.awkward': (event) => {
    const data = event.data as { at: string; note: string; pull: number | null; batch: number[] };
    return [
      {
        type: 'queue.pause.create',
        repository: 'Acme/Mono',
        pullRequest: data.pull,
        baseRef: data.note,
        batchPullRequests: data.batch,
        trigger: `Application: ${data.note}`,
        receivedAt: new Date(data.at),
        metadata: { reason: data.note, nested: { path: 'C:\\temp\\x', quote: '"\u00e9"' }, list: [null, 1] },
      },
    ];
  },
};
const AWKWARD_NOTES = ['tab\there', 'line\nbreak', 'cr\rhere', 'back\\slash', '\\N', 'ünï "cödé"'];

describeEachDatabase('activity-log bulk load', (database) => {
  const projection = createActivityLogProjection([mergeQueueLogMapping, awkwardMapping]);
  const opened: SqlExecutor[] = [];
  const open = async () => {
    const db = await database.open();
    opened.push(db);
    return db;
  };
  afterAll(() => Promise.all(opened.map((db) => db.close())));

  /** Every row of every table, and the indexes: what a reader can tell apart. */
  const contents = async (db: SqlExecutor, indexSchema?: string) => ({
    tables: await Promise.all(
      ACTIVITY_LOG_TABLES.map(async (table) =>
        (await db.query(`SELECT * FROM ${table}`)).rows.map((row) => JSON.stringify(row)).sort(),
      ),
    ),
    indexes: (
      await db.query<{ indexdef: string }>(
        `SELECT regexp_replace(indexdef, ' ON \\S+\\.', ' ON ') AS indexdef FROM pg_indexes
         WHERE schemaname = coalesce($1, current_schema()) AND tablename = ANY($2::text[]) ORDER BY indexname`,
        [indexSchema ?? null, ACTIVITY_LOG_TABLES],
      )
    ).rows.map((row) => row.indexdef),
  });

  /** The queue workload with two runs of awkward records, one first and one about 200 events in. */
  const workloadEvents = (feed: RecordedEventFeed): RecordedEvent[] => {
    const awkward = (start: number) =>
      feed.record(
        AWKWARD_NOTES.map((note, index) => ({
          type: 'test.awkward',
          data: {
            // On a day's edge, then inside slots shared with the workload's records.
            at: new Date(from.getTime() + (start + index) * 3_600_000 - (index === 0 ? 0 : 1)).toISOString(),
            note,
            pull: index % 2 === 0 ? null : 7,
            batch: index % 3 === 0 ? [] : [7, 8, 7],
          },
        })),
        `awkward-${start}`,
      );
    const events = awkward(0);
    for (const append of queueWorkload({ repository: 'Acme/Mono', seed: 11, from, to, events: 400 })) {
      events.push(...feed.record(append.events, append.streamId));
      if (events.length >= 200 && !events.some((event) => event.streamId === 'awkward-24')) {
        events.push(...awkward(24));
      }
    }
    return events;
  };

  jest.setTimeout(120_000);

  it('bulk load, finish, then apply for the tail gives the tables and indexes that setup and apply give', async () => {
    const events = workloadEvents(new RecordedEventFeed());
    const bulk = projection.bulkLoad!();
    const tail = Math.floor(events.length * 0.8);
    // Both runs of awkward records go through the bulk path.
    expect(events.slice(0, tail).filter((event) => event.type === 'test.awkward')).toHaveLength(
      2 * AWKWARD_NOTES.length,
    );

    const live = await open();
    await live.transaction((tx) => projection.setup(tx));
    await inBatches(events, 97, (batch) => live.transaction((tx) => projection.apply(tx, batch)));

    const rebuilt = await open();
    await rebuilt.transaction((tx) => bulk.createTables(tx));
    await inBatches(events.slice(0, tail), 250, (batch) =>
      rebuilt.transaction((tx) => bulk.apply(tx, batch)),
    );
    for (const step of bulk.finishSteps()) await rebuilt.transaction(step);
    await inBatches(events.slice(tail), 41, (batch) =>
      rebuilt.transaction((tx) => projection.apply(tx, batch)),
    );

    const expected = await contents(live);
    expect(expected.tables[0]!.length).toBeGreaterThan(150);
    expect(await contents(rebuilt)).toEqual(expected);
  });

  it('a blue-green rebuild, several bulk batches in flight, gives what the live projection built', async () => {
    const db = await open();
    const store = await SqlEventStore.open(db);
    try {
      // The store's feed: the same events, each run of the fixture's feed appended as one stream write.
      const recorded = workloadEvents(new RecordedEventFeed());
      let appendedUpTo: Position | null = null;
      for (let i = 0; i < recorded.length;) {
        const streamId = recorded[i]!.streamId;
        let end = i;
        while (end < recorded.length && recorded[end]!.streamId === streamId) end++;
        const events = recorded.slice(i, end).map(({ type, data }) => ({ type, data }));
        ({ lastPosition: appendedUpTo } = await store.appendToStream(streamId, events, {
          expectedRevision: 'any',
        }));
        i = end;
      }
      // Both the live read below and the rebuild read the settled feed: another worker's open
      // transaction on the server would otherwise hide the appends from them.
      await untilSettled(store, appendedUpTo!);
      await db.transaction((tx) => projection.setup(tx));
      let after: Position | 'start' = 'start';
      for (let end = false; !end;) {
        const page = await store.readAll({ after, limit: 61 });
        if (page.events.length > 0) await db.transaction((tx) => projection.apply(tx, page.events));
        ({ lastPosition: after, endOfFeed: end } = page);
      }
      const live = await contents(db);

      // Small batches: many bulk batches, each written while the next is prepared.
      const result = await rebuildBlueGreen({ executor: db, store, projection, batchSize: 17 });
      const generation = await readActiveGeneration(db, projection.name);
      expect(result.records).toBe(live.tables[0]!.length);
      expect(live.tables[0]!.length).toBeGreaterThan(150);
      expect(await contents(db, generation!.schema)).toEqual(live);
    } finally {
      await store.close();
    }
  });
});

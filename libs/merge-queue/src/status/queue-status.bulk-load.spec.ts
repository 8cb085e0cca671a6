import type { Position, RecordedEvent } from '@switchyard/event-store';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { quoteIdentifier, readActiveGeneration, rebuildBlueGreen } from '@switchyard/projection';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase, untilSettled } from '@switchyard/testing';
import type { MergeQueueEvent } from '../domain/events';
import type { WorkloadAppend } from '../testing/queue-workload';
import { HISTORY_EVERY } from './queue-batch-fold';
import { queueStatusProjection as projection } from './queue-status.projection';
import { QUEUE_ACTIVITY_TABLE, QUEUE_STATUS_HISTORY_TABLE, QUEUE_STATUS_TABLE } from './queue-status.schema';
import { evolveStatus, initialStatusFold } from './status-fold';
import { interleavedWorkloads } from './testing/queue-feed';

const TABLES = [QUEUE_STATUS_TABLE, QUEUE_STATUS_HISTORY_TABLE, QUEUE_ACTIVITY_TABLE];
const MAIN_STREAM = 'merge_queue-acme/mono-main';

/** Consecutive batches of the events, batch i of sizes(i) events. */
const slices = (events: readonly RecordedEvent[], sizes: (index: number) => number): RecordedEvent[][] => {
  const batches: RecordedEvent[][] = [];
  for (let i = 0; i < events.length;) {
    const size = sizes(batches.length);
    batches.push(events.slice(i, i + size));
    i += size;
  }
  return batches;
};
const inBatchesOf = (size: number) => () => size;

/** Streams with events in more than one of the batches. */
const splitStreams = (batches: readonly RecordedEvent[][]): string[] => {
  const batchesOf = new Map<string, Set<number>>();
  batches.forEach((batch, index) =>
    batch.forEach((event) =>
      batchesOf.set(event.streamId, (batchesOf.get(event.streamId) ?? new Set()).add(index)),
    ),
  );
  return [...batchesOf].filter(([, seen]) => seen.size > 1).map(([streamId]) => streamId);
};

/** Queue events on a stream outside the queue streams (apply ignores them), then two queues' streams. */
const queueAppends = (eventsEach: number): WorkloadAppend[] => [
  ...interleavedWorkloads(['Acme/Shadow'], 60, { onQueueStreams: false }).map(({ events }) => ({
    streamId: 'shadow-queue',
    events,
  })),
  ...interleavedWorkloads(['Acme/Mono', 'Acme/Tools'], eventsEach, { onQueueStreams: true }),
];

describeEachDatabase('merge_queue.status bulk load', (database) => {
  const opened: SqlExecutor[] = [];
  const stores: SqlEventStore[] = [];
  const open = async () => {
    const db = await database.open();
    opened.push(db);
    return db;
  };
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await Promise.all(opened.map((db) => db.close()));
  });
  jest.setTimeout(180_000);

  /** The appends through an event store, and its whole feed as it hands the events back. */
  const feedOf = async (appends: readonly WorkloadAppend[]) => {
    const db = await open();
    const store = await SqlEventStore.open(db);
    stores.push(store);
    let last: Position | null = null;
    for (const { streamId, events } of appends)
      ({ lastPosition: last } = await store.appendToStream(streamId, events, { expectedRevision: 'any' }));
    // Another worker's open transaction on the server would otherwise hide the appends from readAll.
    await untilSettled(store, last!);
    const { events } = await store.readAll({ after: 'start', limit: 1_000_000 });
    return { db, store, events };
  };

  /** The rows of each table in key order and the index definitions, schema names left out. */
  const tablesOf = async (db: SqlExecutor, schema?: string) => {
    const rows = async (table: string) =>
      (
        await db.query(
          `SELECT * FROM ${schema ? `${quoteIdentifier(schema)}.` : ''}${table} ORDER BY 1, 2, 3`,
        )
      ).rows;
    const { rows: indexes } = await db.query<{ definition: string }>(
      `SELECT replace(indexdef, schemaname || '.', '') AS definition FROM pg_indexes
       WHERE schemaname = coalesce($1, current_schema()) AND tablename = ANY($2::text[]) ORDER BY indexname`,
      [schema ?? null, TABLES],
    );
    return {
      status: await rows(QUEUE_STATUS_TABLE),
      history: await rows(QUEUE_STATUS_HISTORY_TABLE),
      activity: await rows(QUEUE_ACTIVITY_TABLE),
      indexes: indexes.map((index) => index.definition),
    };
  };

  const applied = async (batches: readonly RecordedEvent[][], db?: SqlExecutor) => {
    const into = db ?? (await open());
    await into.transaction((tx) => projection.setup(tx));
    for (const batch of batches) await into.transaction((tx) => projection.apply(tx, batch));
    return into;
  };

  /** Bulk batches, finish, then the tail through apply, as a rebuild runs them. */
  const bulkLoaded = async (
    bulkBatches: readonly RecordedEvent[][],
    tail: readonly RecordedEvent[][] = [],
  ) => {
    const db = await open();
    const bulk = projection.bulkLoad!();
    await db.transaction((tx) => bulk.createTables(tx));
    for (const batch of bulkBatches) await db.transaction((tx) => bulk.apply(tx, batch));
    for (const step of bulk.finishSteps()) await db.transaction(step);
    for (const batch of tail) await db.transaction((tx) => projection.apply(tx, batch));
    return db;
  };

  /** Two queues' feeds, shared by the tests that only read it (appending to PGlite takes a while). */
  let twoQueues: RecordedEvent[];
  beforeAll(async () => {
    ({ events: twoQueues } = await feedOf(queueAppends(300)));
  }, 180_000);

  it('bulk load, finish, then apply for the tail gives what setup and apply give', async () => {
    const events = twoQueues;
    const tail = Math.floor(events.length * 0.8);
    const bulkBatches = slices(events.slice(0, tail), inBatchesOf(113));
    expect(splitStreams(bulkBatches)).toEqual(
      expect.arrayContaining([MAIN_STREAM, 'merge_queue-acme/tools-main']),
    );

    const expected = await tablesOf(await applied(slices(events, inBatchesOf(97))));
    expect(expected.status.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(expected.status)).not.toContain('acme/shadow');
    expect(expected.history.length).toBeGreaterThanOrEqual(8);
    expect(expected.activity.length).toBeGreaterThan(100);
    const rebuilt = await bulkLoaded(bulkBatches, slices(events.slice(tail), inBatchesOf(41)));
    expect(await tablesOf(rebuilt)).toEqual(expected);
  });

  it('keeps the fold at each HISTORY_EVERY-th event, whichever side of a batch edge it falls on', async () => {
    const events = twoQueues.filter((e) => e.streamId === MAIN_STREAM);
    expect(events.length).toBeGreaterThan(3 * HISTORY_EVERY);
    // Edges right after the 50th event and right before the 100th, then small batches.
    const sizes = [HISTORY_EVERY, HISTORY_EVERY - 1];
    const bulkBatches = slices(events, (index) => sizes[index] ?? 7);
    expect(bulkBatches[0]!.at(-1)!.revision).toBe(BigInt(HISTORY_EVERY - 1));
    expect(bulkBatches[2]![0]!.revision).toBe(BigInt(2 * HISTORY_EVERY - 1));

    const rebuilt = await tablesOf(await bulkLoaded(bulkBatches));
    const foldAt = (revision: number) =>
      events
        .slice(0, revision + 1)
        .reduce(
          (fold, e) => evolveStatus(fold, { type: e.type, data: e.data } as MergeQueueEvent),
          initialStatusFold(),
        );
    const kept = Array.from(
      { length: Math.floor(events.length / HISTORY_EVERY) },
      (_, i) => (i + 1) * HISTORY_EVERY - 1,
    );
    expect(rebuilt.history.map((row) => Number(row.revision))).toEqual(kept);
    for (const row of rebuilt.history)
      expect(JSON.parse(row.fold as string)).toEqual(foldAt(Number(row.revision)));
    expect(rebuilt).toEqual(await tablesOf(await applied(slices(events, inBatchesOf(97)))));
  });

  it('streams of one batch each, several per queue (as the workload writes them): what apply gives over the same batches', async () => {
    const appends = interleavedWorkloads(['Acme/Mono', 'Acme/Tools'], 300, { onQueueStreams: false });
    const { events } = await feedOf(appends);
    const batches = slices(events, inBatchesOf(29));
    expect(splitStreams(batches).length).toBeGreaterThan(3);

    const expected = await tablesOf(await applied(batches));
    expect(expected.status.length).toBeLessThan(new Set(appends.map((a) => a.streamId)).size);
    expect(await tablesOf(await bulkLoaded(batches))).toEqual(expected);
  });

  it('a blue-green rebuild, several bulk batches in flight, gives what the live projection built', async () => {
    const { db, store, events } = await feedOf(queueAppends(200));
    const expected = await tablesOf(await applied(slices(events, inBatchesOf(61)), db));
    expect(expected.history.length).toBeGreaterThanOrEqual(4);

    const result = await rebuildBlueGreen({ executor: db, store, projection, batchSize: 17 });
    expect(result.records).toBe(expected.status.length);
    const generation = await readActiveGeneration(db, projection.name);
    expect(await tablesOf(db, generation!.schema)).toEqual(expected);
  });
});

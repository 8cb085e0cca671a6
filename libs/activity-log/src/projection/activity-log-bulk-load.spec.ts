import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import { describeEachDatabase } from '@switchyard/testing';
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

describeEachDatabase('activity-log bulk load', (database) => {
  const projection = createActivityLogProjection([mergeQueueLogMapping]);
  const opened: SqlExecutor[] = [];
  const open = async () => {
    const db = await database.open();
    opened.push(db);
    return db;
  };
  afterAll(() => Promise.all(opened.map((db) => db.close())));

  /** Every row of every table, and the indexes: what a reader can tell apart. */
  const contents = async (db: SqlExecutor) => ({
    tables: await Promise.all(
      ACTIVITY_LOG_TABLES.map(async (table) =>
        (await db.query(`SELECT * FROM ${table}`)).rows.map((row) => JSON.stringify(row)).sort(),
      ),
    ),
    indexes: (
      await db.query<{ indexdef: string }>(
        `SELECT regexp_replace(indexdef, ' ON \\S+\\.', ' ON ') AS indexdef FROM pg_indexes
         WHERE schemaname = current_schema() ORDER BY indexname`,
      )
    ).rows.map((row) => row.indexdef),
  });

  jest.setTimeout(120_000);

  it('bulk load, finish, then apply for the tail gives the tables and indexes that setup and apply give', async () => {
    const feed = new RecordedEventFeed();
    const events = [...queueWorkload({ repository: 'Acme/Mono', seed: 11, from, to, events: 400 })].flatMap(
      (append) => feed.record(append.events, append.streamId),
    );
    const bulk = projection.bulk!;
    const tail = Math.floor(events.length * 0.8);

    const live = await open();
    await live.transaction((tx) => projection.setup(tx));
    await inBatches(events, 97, (batch) => live.transaction((tx) => projection.apply(tx, batch)));

    const rebuilt = await open();
    await rebuilt.transaction((tx) => bulk.createTables(tx));
    await inBatches(events.slice(0, tail), 250, (batch) =>
      rebuilt.transaction((tx) => bulk.apply(tx, batch)),
    );
    await rebuilt.transaction((tx) => bulk.finish(tx));
    await inBatches(events.slice(tail), 41, (batch) =>
      rebuilt.transaction((tx) => projection.apply(tx, batch)),
    );

    const expected = await contents(live);
    expect(expected.tables[0]!.length).toBeGreaterThan(150);
    expect(await contents(rebuilt)).toEqual(expected);
  });
});

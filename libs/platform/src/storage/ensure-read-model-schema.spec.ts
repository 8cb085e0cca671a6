import { SqlEventStore } from '@switchyard/event-store/sql';
import { type SqlExecutor } from '@switchyard/sql';
import { readActiveGeneration, rebuildBlueGreen, type Projection } from '@switchyard/projection';
import { describeEachDatabase, untilSettled } from '@switchyard/testing';
import { ensureReadModelSchema } from './ensure-read-model-schema';

/** One row per event, with a secondary index: what setup cannot create on a view. */
const eventsProjection = (name: string, version: number): Projection => ({
  name,
  version,
  async setup(tx) {
    await tx.exec(`CREATE TABLE IF NOT EXISTS ${name} (event_id text PRIMARY KEY, type text NOT NULL);
      CREATE INDEX IF NOT EXISTS ${name}_type ON ${name} (type)`);
  },
  async reset(tx) {
    await tx.query(`DELETE FROM ${name}`);
  },
  async apply(tx, events) {
    for (const event of events) {
      await tx.query(`INSERT INTO ${name} (event_id, type) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
        event.eventId,
        event.type,
      ]);
    }
  },
});

describeEachDatabase('ensureReadModelSchema', (db) => {
  let executor: SqlExecutor;
  let store: SqlEventStore;
  beforeAll(async () => {
    executor = await db.open();
    store = await SqlEventStore.open(executor);
    const appended = await store.appendToStream('pr-1', [{ type: 'Opened', data: {} }], {
      expectedRevision: 'no_stream',
    });
    // The rebuild reads the settled feed; another suite's open transaction may hold it back a moment.
    await untilSettled(store, appended.lastPosition);
  });
  afterAll(async () => {
    await store.close();
    await executor.close();
  });

  const count = async (name: string) =>
    Number((await executor.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${name}`)).rows[0]!.n);

  it('creates the tables of a projection that has none yet', async () => {
    await ensureReadModelSchema(executor, [eventsProjection('fresh_events', 1)]);
    expect(await count('fresh_events')).toBe(0);
  });

  it('leaves a projection served by a blue-green generation alone on a version bump, still serving', async () => {
    await rebuildBlueGreen({ executor, store, projection: eventsProjection('served_events', 1) });
    expect(await readActiveGeneration(executor, 'served_events')).not.toBeNull();

    await ensureReadModelSchema(executor, [eventsProjection('served_events', 2)]);
    expect(await count('served_events')).toBe(1);
  });
});

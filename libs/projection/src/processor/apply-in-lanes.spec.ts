import type { RecordedEvent } from '@switchyard/event-store';
import { describeEachDatabase } from '@switchyard/testing';
import { readCheckpoint } from '../checkpoint/checkpoint-store';
import type { Projection } from '../projection';
import { appendTypes, projectionTestSuite, uniqueName } from '../test/projection-test-env';
import { readTally, tallyProjection } from '../test/tally-projection';
import { lanesOf, MAX_LANES } from './apply-in-lanes';

const event = (streamId: string, index: number) =>
  ({ streamId, eventId: `${streamId}-${index}` }) as RecordedEvent;

describe('lanesOf', () => {
  const byStream: Pick<Projection, 'laneOf'> = { laneOf: (e) => e.streamId };

  it('groups a batch by lane, each lane in feed order, lanes in order of first appearance', () => {
    const batch = [event('b', 1), event('a', 2), event('b', 3), event('a', 4), event('c', 5)];
    expect(lanesOf(batch, byStream as Projection).map((lane) => lane.map((e) => e.eventId))).toEqual([
      ['b-1', 'b-3'],
      ['a-2', 'a-4'],
      ['c-5'],
    ]);
  });

  it('folds lanes beyond MAX_LANES onto the first ones, each still in feed order', () => {
    const streams = Array.from({ length: MAX_LANES + 2 }, (_, i) => `s${i}`);
    const batch = [...streams, ...streams].map((stream, i) => event(stream, i));
    const lanes = lanesOf(batch, byStream as Projection);
    expect(lanes).toHaveLength(MAX_LANES);
    expect(lanes[0]!.map((e) => e.eventId)).toEqual([
      's0-0',
      `s${MAX_LANES}-${MAX_LANES}`,
      `s0-${streams.length}`,
      `s${MAX_LANES}-${streams.length + MAX_LANES}`,
    ]);
    expect(lanes.flat()).toHaveLength(batch.length);
  });

  it('is one lane for a projection without laneOf', () => {
    const batch = [event('b', 1), event('a', 2)];
    expect(lanesOf(batch, {} as Projection)).toEqual([batch]);
  });
});

describeEachDatabase('a projection with lanes', (db) => {
  const suite = projectionTestSuite(db);

  /** A tally whose lanes are its streams, noting the transaction each event was applied in. */
  function lanedTally(options: { beforeApply?: (events: readonly RecordedEvent[]) => Promise<void> } = {}) {
    const name = uniqueName('laned');
    const stream = `${name}-`;
    const tally = tallyProjection({ name, streamPrefix: stream });
    const transactionOf = new Map<string, string>();
    const projection: Projection = {
      ...tally,
      laneOf: (e) => e.streamId,
      async apply(tx, events) {
        const { rows } = await tx.query<{ id: string }>(`SELECT txid_current()::text AS id`);
        for (const e of events) transactionOf.set(e.eventId, rows[0]!.id);
        // The store is shared with the suite's other cases: only this case's events count.
        const mine = events.filter((e) => e.streamId.startsWith(stream));
        if (mine.length > 0) await options.beforeApply?.(mine);
        await tally.apply(tx, events);
      },
    };
    return { name, stream, projection, transactionOf };
  }

  it('applies a batch that spans lanes in one transaction per lane, side by side on PostgreSQL, then moves the checkpoint', async () => {
    // Each lane waits until the other has begun: lanes applied one after the other never get there.
    let begun = 0;
    let bothBegun!: () => void;
    const together = new Promise<void>((resolve) => (bothBegun = resolve));
    const { name, stream, projection, transactionOf } = lanedTally({
      async beforeApply() {
        if (db.name !== 'postgres') return;
        if (++begun === 2) bothBegun();
        let timer: NodeJS.Timeout | undefined;
        const apart = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('the lanes were not applied side by side')), 5000);
        });
        await Promise.race([together, apart]).finally(() => clearTimeout(timer));
      },
    });
    await appendTypes(suite.env.store, `${stream}a`, ['A1', 'A2']);
    const head = await appendTypes(suite.env.store, `${stream}b`, ['B1']);

    const runner = suite.runners.start(projection, { batchSize: 10 });
    expect(await runner.waitFor(head)).toBe(true);

    const rows = (await readTally(suite.env.executor, name)).sort((x, y) => x.type.localeCompare(y.type));
    expect(rows.map((row) => [row.type, row.applied])).toEqual([
      ['A1', 1],
      ['A2', 1],
      ['B1', 1],
    ]);
    const [a1, a2, b1] = rows.map((row) => transactionOf.get(row.eventId));
    expect(a1).toBe(a2);
    // PGlite has one connection: its lanes would only queue, so the batch stays one transaction.
    if (db.name === 'postgres') expect(b1).not.toBe(a1);
    else expect(b1).toBe(a1);
    expect((await readCheckpoint(suite.env.executor, name))?.position).toBe(head);
  });

  it('leaves the checkpoint where it was when a lane fails, once every lane has settled; the events are then applied one by one', async () => {
    let failA = true;
    let laneBDone = false;
    const { name, stream, projection } = lanedTally({
      async beforeApply(events) {
        if (events.some((e) => e.type === 'A1') && failA && events.length > 1) {
          // Lane a as a whole (or, on PGlite, the one transaction of the whole batch).
          failA = false;
          throw new Error('lane a fails once');
        }
        if (events.some((e) => e.type === 'B1')) laneBDone = true;
      },
    });
    const before = await appendTypes(suite.env.store, `${stream}x`, ['X']);
    const runner = suite.runners.start(projection, { batchSize: 1 });
    expect(await runner.waitFor(before)).toBe(true);
    await suite.runners.stopAll();

    await appendTypes(suite.env.store, `${stream}a`, ['A1', 'A2']);
    const head = await appendTypes(suite.env.store, `${stream}b`, ['B1']);
    const restarted = suite.runners.start(projection, { batchSize: 10 });
    expect(await restarted.waitFor(head)).toBe(true);

    expect(laneBDone).toBe(true);
    const applied = Object.fromEntries(
      (await readTally(suite.env.executor, name)).map((row) => [row.type, row.applied]),
    );
    // Lane b committed before the batch was given up, and the checkpoint had not moved past it:
    // the retry applies it again, which is why a projection with lanes must not mind that.
    if (db.name === 'postgres') expect(applied).toEqual({ X: 1, A1: 1, A2: 1, B1: 2 });
    else expect(applied).toEqual({ X: 1, A1: 1, A2: 1, B1: 1 });
    expect((await readCheckpoint(suite.env.executor, name))?.position).toBe(head);
  });
});

import { seededRandom } from '@switchyard/kernel';
import { describeEachDatabase } from '@switchyard/testing';
import { readCheckpoint } from '../checkpoint/checkpoint-store';
import { ProcessorRunner } from '../processor/processor-runner';
import { counterProjection, expectedCounters, readCounters } from '../test/counter-projection';
import {
  appendTypes,
  openProjectionTestEnv,
  storedEvents,
  uniqueName,
  type ProjectionTestEnv,
} from '../test/projection-test-env';
import { RecordingLogger } from '../test/recording-logger';
import { readTally, tallyProjection } from '../test/tally-projection';
import { rebuildBlueGreen } from './blue-green-rebuild';

const TYPES = ['Opened', 'Renamed', 'Labelled', 'Closed'];
/** SWITCHYARD_PROPERTY_SEED replays one failing run. */
const SEEDS = process.env.SWITCHYARD_PROPERTY_SEED
  ? [Number(process.env.SWITCHYARD_PROPERTY_SEED)]
  : [7, 1979, 4242];

describeEachDatabase('rebuildBlueGreen equals the live read model', (db) => {
  let env: ProjectionTestEnv;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
  });
  afterAll(() => env.close());

  const runnerFor = (projection: ReturnType<typeof counterProjection>, batchSize?: number) =>
    new ProcessorRunner(projection, {
      executor: env.executor,
      store: env.store,
      logger: new RecordingLogger(),
      batchSize,
    });

  it.each(SEEDS)(
    'seed %i: live runs in random batch splits and a rebuild beside the running runner give the same rows',
    async (seed) => {
      const random = seededRandom(seed);
      const name = uniqueName('counters');
      const prefix = `${name}-`;
      const eventTypes = random.chance(0.5) ? TYPES.filter(() => random.chance(0.6)) : undefined;
      const projection = counterProjection({ name, streamPrefix: prefix, eventTypes });
      const streams = Array.from({ length: random.int(1, 6) }, (_, i) => `${prefix}${i}`);

      const runner = runnerFor(projection, random.int(1, 8));
      runner.start();
      let head = null;
      try {
        for (let appends = random.int(10, 25); appends > 0; appends--) {
          const types = Array.from({ length: random.int(1, 5) }, () => random.pick(TYPES));
          head = await appendTypes(env.store, random.pick(streams), types);
          // Sometimes let the runner catch up, sometimes pile up a backlog: batches split differently.
          if (random.chance(0.3)) expect(await runner.waitFor(head)).toBe(true);
        }
        expect(await runner.waitFor(head)).toBe(true);
        const live = await readCounters(env.executor, name);
        expect(live).toEqual(
          expectedCounters(await storedEvents(env.store, prefix), { streamPrefix: prefix, eventTypes }),
        );

        const progress: Array<[number, number | null]> = [];
        const result = await rebuildBlueGreen({
          executor: env.executor,
          store: env.store,
          projection,
          batchSize: random.int(1, 10),
          onProgress: (done, total) => progress.push([done, total]),
        });

        expect(await readCounters(env.executor, name)).toEqual(live);
        const total = await env.store.countEvents(eventTypes ? { eventTypes } : undefined);
        expect(result).toMatchObject({ projection: name, version: 1, events: total, records: live.length });
        expect(progress[0]).toEqual([0, total]);
        expect(progress[progress.length - 1]).toEqual([total, total]);
        const done = progress.map(([count]) => count);
        expect(done).toEqual([...done].sort((a, b) => a - b));
        expect(await readCheckpoint(env.executor, name)).toEqual({
          name,
          version: 1,
          position: result.position,
          failure: null,
          heartbeatAt: null,
          lastError: null,
        });
      } finally {
        await runner.stop();
      }
    },
  );

  it('applying the same batch twice changes nothing', async () => {
    const name = uniqueName('counters');
    const projection = counterProjection({ name, streamPrefix: `${name}-` });
    await appendTypes(env.store, `${name}-a`, ['Opened', 'Renamed']);
    await appendTypes(env.store, `${name}-b`, ['Opened']);
    const last = await appendTypes(env.store, `${name}-a`, ['Closed']);
    const events = await storedEvents(env.store, `${name}-`, last);
    await env.executor.transaction((tx) => projection.setup(tx));

    await env.executor.transaction((tx) => projection.apply(tx, events));
    const once = await readCounters(env.executor, name);
    await env.executor.transaction((tx) => projection.apply(tx, events));

    expect(once).toEqual([
      { streamId: `${name}-a`, events: 3, lastType: 'Closed' },
      { streamId: `${name}-b`, events: 1, lastType: 'Opened' },
    ]);
    expect(await readCounters(env.executor, name)).toEqual(once);
  });

  it('leaves a checkpoint a runner continues from without applying anything twice', async () => {
    const name = uniqueName('tally');
    const projection = tallyProjection({ name, streamPrefix: `${name}-` });
    await appendTypes(env.store, `${name}-a`, ['A', 'B']);
    await rebuildBlueGreen({ executor: env.executor, store: env.store, projection, batchSize: 1 });

    const position = await appendTypes(env.store, `${name}-a`, ['C']);
    const runner = new ProcessorRunner(projection, {
      executor: env.executor,
      store: env.store,
      logger: new RecordingLogger(),
    });
    runner.start();
    try {
      expect(await runner.waitFor(position)).toBe(true);
    } finally {
      await runner.stop();
    }
    const rows = await readTally(env.executor, name);
    expect(rows.map((row) => [row.type, row.applied])).toEqual(
      expect.arrayContaining([
        ['A', 1],
        ['B', 1],
        ['C', 1],
      ]),
    );
    expect(rows).toHaveLength(3);
  });
});

import { describeEachDatabase } from '@switchyard/testing';
import { ProjectionRunner } from '../runner/projection-runner';
import {
  appendTypes,
  openProjectionTestEnv,
  uniqueName,
  type ProjectionTestEnv,
} from '../test/projection-test-env';
import { RecordingLogger } from '../test/recording-logger';
import { tallyProjection } from '../test/tally-projection';
import { CheckpointFreshness } from './checkpoint-freshness';
import { PgNotifyCheckpointSignal } from './pg-notify-checkpoint-signal';

/** Longer than jest's test timeout: a wait that returns true was woken by the signal, not by its last look. */
const WOKEN_ONLY = 120_000;

describeEachDatabase('CheckpointFreshness over NOTIFY', (db) => {
  let env: ProjectionTestEnv;
  const runners: ProjectionRunner[] = [];
  const freshnesses: CheckpointFreshness[] = [];
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    await Promise.all(freshnesses.splice(0).map((freshness) => freshness.close()));
  });
  afterAll(() => env.close());

  const runner = (name: string, prefix: string) => {
    const created = new ProjectionRunner(tallyProjection({ name, streamPrefix: prefix }), {
      executor: env.executor,
      store: env.store,
      logger: new RecordingLogger(),
      publisher: new PgNotifyCheckpointSignal(env.executor),
    });
    runners.push(created);
    return created;
  };
  const freshness = async (projections: string[]) => {
    const created = new CheckpointFreshness({
      executor: env.executor,
      projections,
      signal: new PgNotifyCheckpointSignal(env.executor),
    });
    freshnesses.push(created);
    await created.start();
    return created;
  };

  it('is fresh once every named projection has committed the position, woken by the runners', async () => {
    const prefix = uniqueName('fresh');
    const [first, second] = [runner(`${prefix}_a`, `${prefix}-`), runner(`${prefix}_b`, `${prefix}-`)];
    const reader = await freshness([first.name, second.name]);
    const position = await appendTypes(env.store, `${prefix}-s`, ['A']);

    first.start();
    expect(await first.waitFor(position)).toBe(true);
    expect(await reader.waitFor(position, 50)).toBe(false);

    const waiting = reader.waitFor(position, WOKEN_ONLY);
    second.start();
    expect(await waiting).toBe(true);
  });

  it('answers null at once, and never vouches for a projection without a checkpoint', async () => {
    const prefix = uniqueName('fresh');
    const reader = await freshness([`${prefix}_never_ran`]);
    expect(await reader.waitFor(null)).toBe(true);
    const position = await appendTypes(env.store, `${prefix}-s`, ['A']);
    expect(await reader.waitFor(position, 50)).toBe(false);
  });

  it('reads the table when asked: a projection already past the position is fresh without any signal', async () => {
    const prefix = uniqueName('fresh');
    const silent = new ProjectionRunner(
      tallyProjection({ name: `${prefix}_a`, streamPrefix: `${prefix}-` }),
      {
        executor: env.executor,
        store: env.store,
        logger: new RecordingLogger(),
      },
    );
    runners.push(silent);
    const reader = await freshness([silent.name]);
    const position = await appendTypes(env.store, `${prefix}-s`, ['A']);
    silent.start();
    expect(await silent.waitFor(position)).toBe(true);
    expect(await reader.waitFor(position, 1)).toBe(true);
  });
});

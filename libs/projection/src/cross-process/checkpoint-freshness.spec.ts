import { isAtOrAfter } from '@switchyard/event-store';
import { describeEachDatabase, eventually, scaledWait } from '@switchyard/testing';
import { ReadModelStoppedError } from '../freshness';
import { ProcessorRunner } from '../processor/processor-runner';
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
  const runners: ProcessorRunner[] = [];
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
    const created = new ProcessorRunner(tallyProjection({ name, streamPrefix: prefix }), {
      executor: env.executor,
      store: env.store,
      logger: new RecordingLogger(),
      publisher: new PgNotifyCheckpointSignal(env.executor),
      // Generous: a shared CI machine can stall a commit for seconds.
      defaultWaitTimeoutMs: 20_000,
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

  it('tells a listener each checkpoint the signal announces for its read model, and only those', async () => {
    const prefix = uniqueName('advance');
    const [watched, other] = [runner(`${prefix}_a`, `${prefix}-`), runner(`${prefix}_b`, `${prefix}-`)];
    const reader = await freshness([watched.name, other.name]);
    const heard: string[] = [];
    const unsubscribe = reader.onAdvance(watched.name, (position) => heard.push(String(position)));
    expect(() => reader.onAdvance('not_named_here', () => undefined)).toThrow();
    watched.start();
    other.start();
    const position = await appendTypes(env.store, `${prefix}-s`, ['A']);
    expect(await reader.waitFor([watched.name, other.name], position, 20_000)).toBe(true);
    await eventually(
      'the announcement of the watched checkpoint',
      async () => heard.some((heardAt) => heardAt !== 'start' && isAtOrAfter(heardAt, position)),
      { timeoutMs: scaledWait(20_000) },
    );
    unsubscribe();
    const count = heard.length;
    const later = await appendTypes(env.store, `${prefix}-s`, ['B']);
    expect(await reader.waitFor([watched.name], later, 20_000)).toBe(true);
    expect(heard).toHaveLength(count);
  });

  it('is fresh once every named projection has committed the position, woken by the runners', async () => {
    const prefix = uniqueName('fresh');
    const [first, second] = [runner(`${prefix}_a`, `${prefix}-`), runner(`${prefix}_b`, `${prefix}-`)];
    const both = [first.name, second.name];
    const reader = await freshness(both);
    const position = await appendTypes(env.store, `${prefix}-s`, ['A']);

    first.start();
    expect(await first.waitFor(position)).toBe(true);
    expect(await reader.waitFor([first.name], position, 1)).toBe(true);
    expect(await reader.waitFor(both, position, 50)).toBe(false);

    const waiting = reader.waitFor(both, position, WOKEN_ONLY);
    second.start();
    expect(await waiting).toBe(true);
  });

  it('refuses a write for a processor that stopped for good, and stops waiting for it', async () => {
    const prefix = uniqueName('fresh');
    const poisoned = new ProcessorRunner(
      tallyProjection({ name: `${prefix}_p`, streamPrefix: `${prefix}-`, failWhile: () => true }),
      {
        executor: env.executor,
        store: env.store,
        logger: new RecordingLogger(),
        maxRetryDelayMs: 1,
        maxAttemptsPerEvent: 2,
      },
    );
    runners.push(poisoned);
    const healthy = runner(`${prefix}_h`, `${prefix}-`);
    const reader = await freshness([poisoned.name, healthy.name]);
    const position = await appendTypes(env.store, `${prefix}-s`, ['A']);
    healthy.start();
    poisoned.start();
    expect(await poisoned.waitFor(position)).toBe(false);
    expect(poisoned.failed).not.toBeNull();

    await expect(reader.assertRunning([poisoned.name])).rejects.toBeInstanceOf(ReadModelStoppedError);
    await expect(reader.assertRunning([healthy.name])).resolves.toBeUndefined();
    expect(await reader.waitFor([poisoned.name, healthy.name], position, WOKEN_ONLY)).toBe(false);
    expect(await reader.waitFor([healthy.name], position, WOKEN_ONLY)).toBe(true);
  });

  it('answers null at once, and never vouches for a projection without a checkpoint', async () => {
    const prefix = uniqueName('fresh');
    const reader = await freshness([`${prefix}_never_ran`]);
    expect(await reader.waitFor([`${prefix}_never_ran`], null)).toBe(true);
    const position = await appendTypes(env.store, `${prefix}-s`, ['A']);
    expect(await reader.waitFor([`${prefix}_never_ran`], position, 50)).toBe(false);
  });

  it('reads the table when asked: a projection already past the position is fresh without any signal', async () => {
    const prefix = uniqueName('fresh');
    const silent = new ProcessorRunner(tallyProjection({ name: `${prefix}_a`, streamPrefix: `${prefix}-` }), {
      executor: env.executor,
      store: env.store,
      logger: new RecordingLogger(),
    });
    runners.push(silent);
    const reader = await freshness([silent.name]);
    const position = await appendTypes(env.store, `${prefix}-s`, ['A']);
    silent.start();
    expect(await silent.waitFor(position)).toBe(true);
    expect(await reader.waitFor([silent.name], position, 1)).toBe(true);
  });
});

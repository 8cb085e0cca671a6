import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { encodeSqlPosition, isAtOrAfter, type EventStore } from '@switchyard/event-store';
import { describeEachDatabase, eventually, scaledWait } from '@switchyard/testing';
import { advanceCheckpoint, readCheckpoint } from '../checkpoint/checkpoint-store';
import type { Projection } from '../projection';
import {
  appendTypes,
  openProjectionTestEnv,
  uniqueName,
  runnersOn,
  type ProjectionTestEnv,
} from '../test/projection-test-env';
import { RecordingLogger } from '../test/recording-logger';
import { readTally, tallyProjection, type TallyOptions } from '../test/tally-projection';
import type { ProcessorRunnerOptions } from './processor-runner';

describeEachDatabase('ProcessorRunner', (db) => {
  let env: ProjectionTestEnv;
  let runners: ReturnType<typeof runnersOn>;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
    runners = runnersOn(env);
  });
  afterEach(() => runners.stopAll());
  afterAll(() => env.close());

  const startRunner = (projection: Projection, options: Partial<ProcessorRunnerOptions> = {}) =>
    runners.start(projection, options);
  const tally = (options: Partial<TallyOptions> = {}) => {
    const name = options.name ?? uniqueName('tally');
    return {
      name,
      stream: `${name}-`,
      projection: tallyProjection({ name, streamPrefix: `${name}-`, ...options }),
    };
  };
  const appliedOnce = (rows: Array<{ applied: number }>) => rows.every((row) => row.applied === 1);

  it('commits a batch without waiting for its WAL to reach disk: a crash loses rows and checkpoint together', async () => {
    const { name, stream, projection } = tally();
    const settings: string[] = [];
    const watching: Projection = {
      ...projection,
      async apply(tx, events) {
        const { rows } = await tx.query<{ value: string }>(
          `SELECT current_setting('synchronous_commit') AS value`,
        );
        settings.push(rows[0]!.value);
        await projection.apply(tx, events);
      },
    };
    const appended = await appendTypes(env.store, `${stream}a`, ['Opened']);
    expect(await startRunner(watching).waitFor(appended)).toBe(true);
    expect(settings).toContain('off');
    expect(await readTally(env.executor, name)).toHaveLength(1);
    // Only that transaction: the connection goes back to the pool as it was.
    const { rows } = await env.executor.query<{ value: string }>(
      `SELECT current_setting('synchronous_commit') AS value`,
    );
    expect(rows[0]!.value).toBe('on');
  });

  it('catches up on the events already stored, then follows live appends', async () => {
    const { name, stream, projection } = tally();
    await appendTypes(env.store, `${stream}a`, ['Opened', 'Renamed', 'Closed']);
    const backlog = await appendTypes(env.store, `${stream}b`, ['Opened', 'Renamed']);

    const runner = startRunner(projection, { batchSize: 2 });
    expect(await runner.waitFor(backlog)).toBe(true);
    expect(await readTally(env.executor, name)).toHaveLength(5);

    const live = await appendTypes(env.store, `${stream}c`, ['Opened', 'Closed']);
    expect(await runner.waitFor(live)).toBe(true);
    const rows = await readTally(env.executor, name);
    expect(rows).toHaveLength(7);
    expect(appliedOnce(rows)).toBe(true);
    expect(runner.status()).toMatchObject({
      name,
      state: 'live',
      lagging: false,
      lastError: null,
      failures: 0,
    });
    expect((await readCheckpoint(env.executor, name))?.position).toBe(runner.position());
  });

  it('resumes after a restart from its checkpoint without applying any event twice', async () => {
    const { name, stream, projection } = tally();
    const first = startRunner(projection, { batchSize: 3 });
    const before = await appendTypes(env.store, `${stream}a`, ['A', 'B', 'C', 'D']);
    expect(await first.waitFor(before)).toBe(true);
    await first.stop();

    await appendTypes(env.store, `${stream}a`, ['E', 'F']);
    const after = await appendTypes(env.store, `${stream}b`, ['G']);
    const second = startRunner(projection, { batchSize: 3 });
    expect(await second.waitFor(after)).toBe(true);

    const rows = await readTally(env.executor, name);
    expect(rows.map((row) => row.type).sort()).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    expect(appliedOnce(rows)).toBe(true);
  });

  it('bumping the version replays every event into the new version', async () => {
    const { name, stream, projection } = tally();
    const head = await appendTypes(env.store, `${stream}a`, ['A', 'B', 'C']);
    const v1 = startRunner(projection);
    expect(await v1.waitFor(head)).toBe(true);
    await v1.stop();

    const logger = new RecordingLogger();
    const v2 = startRunner(tally({ name, version: 2 }).projection, { logger });
    expect(await v2.waitFor(head)).toBe(true);

    const rows = await readTally(env.executor, name);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.version === 2 && row.applied === 1)).toBe(true);
    expect(await readCheckpoint(env.executor, name)).toMatchObject({ version: 2 });
    expect((await logger.entry('info', 'version changed')).context).toMatchObject({ from: 1, to: 2 });
  });

  it('moves the checkpoint over events its filter leaves out, so waiting on them returns', async () => {
    const name = uniqueName('tally');
    const wanted = `${name}.Wanted`;
    const { stream, projection } = tally({ name, eventTypes: [wanted] });
    const first = await appendTypes(env.store, `${stream}a`, [wanted]);
    const runner = startRunner(projection);
    expect(await runner.waitFor(first)).toBe(true);

    const ignored = await appendTypes(env.store, `${stream}a`, [`${name}.Other`, `${name}.Other`]);
    expect(await runner.waitFor(ignored)).toBe(true);

    const stored = await readCheckpoint(env.executor, name);
    expect(isAtOrAfter(stored!.position, ignored)).toBe(true);
    expect((await readTally(env.executor, name)).map((row) => row.type)).toEqual([wanted]);
  });

  it('waitFor resolves once the append is projected, and times out with false while stopped', async () => {
    const { stream, projection } = tally();
    const runner = startRunner(projection);
    expect(await runner.waitFor(null)).toBe(true);

    const projected = await appendTypes(env.store, `${stream}a`, ['A']);
    expect(await runner.waitFor(projected, 10_000)).toBe(true);

    await runner.stop();
    const unprojected = await appendTypes(env.store, `${stream}a`, ['B']);
    expect(await runner.waitFor(unprojected, 50)).toBe(false);
    expect(runner.status()).toMatchObject({ state: 'stopped' });
  });

  it('logs a failing batch, reports it in its status, and retries it until it goes through', async () => {
    let failing = true;
    const { name, stream, projection } = tally({ failWhile: () => failing });
    const head = await appendTypes(env.store, `${stream}a`, ['A', 'B']);
    const logger = new RecordingLogger();
    // Each failed attempt counts against the event; allow more than the test will make.
    const runner = startRunner(projection, { logger, maxAttemptsPerEvent: 10_000 });

    const logged = await logger.entry('error', 'apply failed');
    expect(logged.context).toMatchObject({ processor: name, error: `${name} cannot apply right now` });
    expect(runner.status()).toMatchObject({
      state: 'failing',
      lagging: true,
      position: 'start',
      lastError: `apply: ${name} cannot apply right now`,
    });

    failing = false;
    expect(await runner.waitFor(head)).toBe(true);
    const rows = await readTally(env.executor, name);
    expect(rows.map((row) => row.type).sort()).toEqual(['A', 'B']);
    expect(appliedOnce(rows)).toBe(true);
    expect(runner.status()).toMatchObject({ lagging: false, lastError: null, failures: 0 });
  });

  it('when someone else moved its checkpoint, rolls back, reloads it and carries on from there', async () => {
    // The in-memory store numbers positions 1, 2, 3 ..., so the test can name a position ahead.
    const store: EventStore = new InMemoryEventStore();
    const { name, stream, projection } = tally();
    const logger = new RecordingLogger();
    const runner = startRunner(projection, { store, logger });
    const first = await appendTypes(store, `${stream}a`, ['A']);
    expect(await runner.waitFor(first)).toBe(true);

    const third = encodeSqlPosition(3n, 3n);
    await env.executor.transaction((tx) =>
      advanceCheckpoint(tx, { name, version: 1, from: first, to: third }),
    );
    const fourth = await appendTypes(store, `${stream}a`, ['B', 'C', 'D']);

    expect(await runner.waitFor(fourth)).toBe(true);
    expect((await logger.entry('warn', 'checkpoint moved')).context).toMatchObject({ processor: name });
    const rows = await readTally(env.executor, name);
    expect(rows.map((row) => row.type).sort()).toEqual(['A', 'D']);
    expect(appliedOnce(rows)).toBe(true);
  });

  it('runs a projection once: a second runner waits for the lock and takes over when the first stops', async () => {
    const { name, stream, projection } = tally();
    const first = startRunner(projection);
    const one = await appendTypes(env.store, `${stream}a`, ['A']);
    expect(await first.waitFor(one)).toBe(true);

    const logger = new RecordingLogger();
    const second = startRunner(projection, { logger, lockRetryMs: 20 });
    await logger.entry('info', 'waiting for its lock');
    const two = await appendTypes(env.store, `${stream}a`, ['B']);
    expect(await first.waitFor(two)).toBe(true);
    expect(second.status()).toMatchObject({ state: 'waiting-for-lock', position: null });

    await first.stop();
    const three = await appendTypes(env.store, `${stream}a`, ['C']);
    expect(await second.waitFor(three)).toBe(true);
    const rows = await readTally(env.executor, name);
    expect(rows.map((row) => row.type).sort()).toEqual(['A', 'B', 'C']);
    expect(appliedOnce(rows)).toBe(true);
  });

  it('stops for good on an event that keeps failing, after committing the ones before it, and says which', async () => {
    const poison = uniqueName('Poison');
    const { name, stream, projection } = tally({ poisonType: poison });
    const logger = new RecordingLogger();
    await appendTypes(env.store, `${stream}a`, ['A', 'B']);
    const poisoned = await appendTypes(env.store, `${stream}b`, ['C', poison]);
    await appendTypes(env.store, `${stream}a`, ['D']);
    // One batch holds all five events: the runner has to find the failing one inside it.
    const runner = startRunner(projection, { logger, batchSize: 10, maxAttemptsPerEvent: 3 });

    expect(await runner.waitFor(poisoned, 60_000)).toBe(false);
    const line = await logger.entry('error', 'processor stopped');
    expect(line.message).toBe(
      `processor stopped: ${name} stopped on ${poison} (stream ${stream}b, revision 1, position ${poisoned}) ` +
        `after 3 attempts: ${name} cannot apply ${poison}`,
    );
    expect((await readTally(env.executor, name)).map((row) => row.type).sort()).toEqual(['A', 'B', 'C']);
    const stored = await readCheckpoint(env.executor, name);
    expect(stored?.position).toBe(runner.position());
    expect(isAtOrAfter(stored!.position, poisoned)).toBe(false);
    expect(stored?.failure).toContain(`stopped on ${poison}`);
    expect(runner.status()).toMatchObject({ state: 'failed', failedOn: { type: poison, attempts: 3 } });
  });

  it('does not blame an event for attempts made while the database is unreachable', async () => {
    let outage = false;
    let attempts = 0;
    const { name, stream, projection } = tally({
      failWhile: () => {
        if (outage) attempts++;
        return outage;
      },
    });
    // Transactions still open, but the probe that tells an outage from a poison event fails.
    const executor = new Proxy(env.executor, {
      get(target, property) {
        if (property === 'query' && outage) return () => Promise.reject(new Error('connection refused'));
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const runner = startRunner(projection, { executor, maxAttemptsPerEvent: 2 });
    expect(await runner.waitFor(await env.store.headPosition())).toBe(true);
    outage = true;
    const head = await appendTypes(env.store, `${stream}a`, ['A']);

    await eventually('four attempts while the database is unreachable', async () => attempts >= 4, {
      timeoutMs: scaledWait(20_000),
    });
    expect(runner.status().state).not.toBe('failed');
    outage = false;
    expect(await runner.waitFor(head)).toBe(true);
    expect((await readTally(env.executor, name)).map((row) => row.type)).toEqual(['A']);
  });
});

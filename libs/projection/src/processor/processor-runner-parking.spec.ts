import { describeEachDatabase, eventually, scaledWait } from '@switchyard/testing';
import {
  countParkedEvents,
  listParkedEvents,
  replayParkedEvent,
  requestReplay,
} from '../parking/parked-events';
import type { Projection } from '../projection';
import {
  appendTypes,
  openProjectionTestEnv,
  uniqueName,
  runnersOn,
  type ProjectionTestEnv,
} from '../test/projection-test-env';
import { RecordingLogger } from '../test/recording-logger';
import { readTally, tallyProjection } from '../test/tally-projection';

/**
 * Issue 33 §2: a fact from outside that cannot be applied is parked and the processor goes on;
 * an operator replays it once the cause is fixed, and it is applied once.
 */
describeEachDatabase('ProcessorRunner parking external facts', (db) => {
  let env: ProjectionTestEnv;
  let runners: ReturnType<typeof runnersOn>;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
    runners = runnersOn(env);
  });
  afterEach(() => runners.stopAll());
  afterAll(() => env.close());

  /** A tally whose apply refuses the `fact` type until it is fixed (as a release would fix it). */
  const breakable = (fact: string) => {
    const name = uniqueName('parking');
    const tally = tallyProjection({ name, streamPrefix: `${name}-` });
    const fix = { fixed: false };
    const projection: Projection = {
      ...tally,
      async apply(tx, events) {
        if (!fix.fixed && events.some((event) => event.type === fact))
          throw new Error('invalid input syntax for type integer: "abc"');
        await tally.apply(tx, events);
      },
    };
    return { name, stream: `${name}-`, projection, fix };
  };
  const parksGitHub = (event: { type: string }) => event.type.startsWith('github.');

  it('parks an external fact it cannot apply, goes on with the next events, and applies it once on replay after a fix', async () => {
    const fact = `github.${uniqueName('changed')}`;
    const { name, stream, projection, fix } = breakable(fact);
    const logger = new RecordingLogger();
    await appendTypes(env.store, `${stream}a`, ['A']);
    const parkedAt = await appendTypes(env.store, `${stream}b`, [fact]);
    const after = await appendTypes(env.store, `${stream}a`, ['B']);
    const runner = runners.start(projection, {
      logger,
      batchSize: 10,
      maxAttemptsPerEvent: 2,
      parks: parksGitHub,
    });

    expect(await runner.waitFor(after, 60_000)).toBe(true);
    expect((await readTally(env.executor, name)).map((row) => row.type).sort()).toEqual(['A', 'B']);
    expect(runner.status()).toMatchObject({ failedOn: null });
    const line = await logger.entry('error', 'processor parked');
    expect(line.message).toContain(`parked ${fact} (stream ${stream}b, revision 0, position ${parkedAt})`);
    const [parked, ...others] = await listParkedEvents(env.executor, { processor: name });
    expect(others).toEqual([]);
    expect(parked).toMatchObject({ type: fact, position: parkedAt, attempts: 2, replayedAt: null });
    expect((await countParkedEvents(env.executor)).get(name)).toBe(1);

    // Replayed while still broken: it fails again and stays parked.
    await requestReplay(env.executor, parked!.id);
    await runner.replayRequested();
    expect((await listParkedEvents(env.executor, { processor: name }))[0]).toMatchObject({
      replayedAt: null,
      lastReplayError: 'invalid input syntax for type integer: "abc"',
    });

    fix.fixed = true;
    const replaying = replayParkedEvent(env.executor, parked!.id, 20_000);
    // The owner carries requests out at its heartbeat; here the test is the heartbeat.
    await eventually(
      'the replay is requested',
      async () =>
        (await listParkedEvents(env.executor, { processor: name })).some(
          (row) => row.replayRequestedAt !== null,
        ),
      { timeoutMs: scaledWait(20_000) },
    );
    await runner.replayRequested();
    expect(await replaying).toMatchObject({ outcome: 'replayed' });
    expect((await readTally(env.executor, name)).map((row) => row.type).sort()).toEqual(
      ['A', 'B', fact].sort(),
    );
    expect((await countParkedEvents(env.executor)).get(name)).toBeUndefined();
    expect(await replayParkedEvent(env.executor, parked!.id)).toMatchObject({ outcome: 'already-replayed' });
    await runner.replayRequested();
    expect((await readTally(env.executor, name)).filter((row) => row.type === fact)).toHaveLength(1);
  });

  it("still stops for good on one of Switchyard's own events", async () => {
    const own = uniqueName('merge_queue_entered');
    const { stream, projection } = breakable(own);
    const poisoned = await appendTypes(env.store, `${stream}a`, [own]);
    const runner = runners.start(projection, { maxAttemptsPerEvent: 2, parks: parksGitHub });
    expect(await runner.waitFor(poisoned, 60_000)).toBe(false);
    expect(runner.status()).toMatchObject({ state: 'failed', failedOn: { type: own } });
  });
});

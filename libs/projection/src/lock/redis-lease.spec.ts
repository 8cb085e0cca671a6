import { CommandService } from '@switchyard/event-store/application';
import { PgliteExecutor } from '@switchyard/sql';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { eventually, scaledWait, testRedisUrl } from '@switchyard/testing';
import { Redis } from 'ioredis';
import { ProcessorRunner } from '../processor/processor-runner';
import type { Reactor } from '../processor/reactor';
import { appendTypes, uniqueName } from '../test/projection-test-env';
import { RecordingLogger } from '../test/recording-logger';
import { recordDone } from '../test/record-done';
import { OwnershipLostError } from './ownership';
import { LEASE_KEY_PREFIX, RedisLeases } from './redis-lease';

const redisUrl = testRedisUrl();
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis('RedisLeases', () => {
  const connections: Redis[] = [];
  /** One connection per "process": each engine has its own, as separate processes would. */
  const connect = () => {
    const redis = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    connections.push(redis);
    return redis;
  };
  afterAll(async () => {
    await Promise.all(connections.map((redis) => redis.quit().catch(() => undefined)));
  });

  it('one holder at a time; a release lets the next one in; a release after a takeover deletes nothing', async () => {
    const name = uniqueName('lease');
    const a = RedisLeases.over(connect(), { ttlMs: 60_000 });
    const b = RedisLeases.over(connect(), { ttlMs: 60_000 });
    const first = await a.tryAcquire(name);
    expect(first?.held()).toBe(true);
    expect(await b.tryAcquire(name)).toBeNull();
    await first!.release();
    expect(first!.held()).toBe(false);
    const second = await b.tryAcquire(name);
    expect(second?.held()).toBe(true);
    // Someone else's lease under the same key (ours expired and it was taken): release leaves it.
    const redis = connect();
    await redis.set(`${LEASE_KEY_PREFIX}${name}`, 'someone-else');
    await second!.release();
    expect(await redis.get(`${LEASE_KEY_PREFIX}${name}`)).toBe('someone-else');
    await redis.del(`${LEASE_KEY_PREFIX}${name}`);
  });

  it('renewals keep a lease past its ttl; a renewal that finds another token loses it at once', async () => {
    const name = uniqueName('lease');
    const redis = connect();
    const leases = RedisLeases.over(redis, { ttlMs: 300, renewEveryMs: 50 });
    const lease = await leases.tryAcquire(name);
    expect(lease).not.toBeNull();
    // Several ttls later the key is still ours: the owner renewed it.
    const key = `${LEASE_KEY_PREFIX}${name}`;
    const token = await redis.get(key);
    let renewals = 0;
    await eventually(
      'several renewals',
      async () => {
        const ttl = await redis.pttl(key);
        if (ttl > 0 && (await redis.get(key)) === token) renewals += 1;
        return renewals >= 5;
      },
      { timeoutMs: scaledWait(20_000), intervalMs: 100 },
    );
    expect(lease!.held()).toBe(true);
    await redis.set(key, 'someone-else', 'PX', 60_000);
    await eventually('the lease lost', async () => lease!.lost.aborted, { timeoutMs: scaledWait(20_000) });
    expect(lease!.held()).toBe(false);
    await lease!.release();
    expect(await redis.get(key)).toBe('someone-else');
    await redis.del(key);
  });

  it('two engines never act at once; when the owner dies the other takes over after expiry, with no double effect', async () => {
    const executor = await PgliteExecutor.open();
    const store = await SqlEventStore.open(executor);
    const name = uniqueName('engine');
    const requested = `${name}.Requested`;
    const done = `${name}.Done`;
    /** Every side effect performed, by which engine, in order. */
    const effects: Array<{ engine: string; source: string }> = [];
    let acting = 0;
    let overlapped = false;
    // The owner stalls before the effect of the third event (a long GC pause, a hung call).
    let stalling: string | null = null;
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    const refusedAfterResume: unknown[] = [];

    const reactorOf = (engine: string): Reactor => ({
      name,
      eventTypes: [requested],
      async react(event, context) {
        if ((event.data as { index: number }).index === 2 && stalling === null) {
          stalling = engine;
          await resumed;
          try {
            context.assertOwnership();
          } catch (error) {
            refusedAfterResume.push(error);
            throw error;
          }
        }
        context.assertOwnership();
        acting += 1;
        if (acting > 1) overlapped = true;
        effects.push({ engine, source: event.eventId });
        await new Promise((resolve) => setImmediate(resolve));
        acting -= 1;
        await context.issue(`${name}-done`, recordDone(done), { source: event.eventId });
      },
    });
    // Two engine processes: each its own connection to Redis, the same reactor and database.
    const leaseConnections = { one: connect(), two: connect() };
    const runners = (['one', 'two'] as const).map(
      (engine) =>
        new ProcessorRunner(reactorOf(engine), {
          executor,
          store,
          commands: new CommandService(store),
          logger: new RecordingLogger(),
          maxRetryDelayMs: 20,
          lockRetryMs: 50,
          defaultWaitTimeoutMs: 60_000,
          // Long enough that a loaded machine's event-loop stalls do not cost the owner its lease.
          ownership: RedisLeases.over(leaseConnections[engine], { ttlMs: 5_000, renewEveryMs: 500 }),
        }),
    );
    for (const runner of runners) runner.start();
    try {
      // Events 0 and 1: one engine acts, the other waits for the lease.
      for (let index = 0; index < 2; index++)
        await store.appendToStream(`${name}-requests`, [{ type: requested, data: { index } }], {
          expectedRevision: 'any',
        });
      await eventually('both effects', async () => effects.length === 2, { timeoutMs: scaledWait(20_000) });
      const owner = effects[0]!.engine as 'one' | 'two';
      const successor = owner === 'one' ? 'two' : 'one';
      expect(effects.map((effect) => effect.engine)).toEqual([owner, owner]);
      const waiting = runners[owner === 'one' ? 1 : 0]!;
      expect(waiting.status().state).toBe('waiting-for-lock');

      // Event 2: the owner stalls before its effect, then its process is cut off from Redis (it
      // died, or is partitioned): no more renewals, the lease runs out, the successor takes over.
      await store.appendToStream(`${name}-requests`, [{ type: requested, data: { index: 2 } }], {
        expectedRevision: 'any',
      });
      await eventually('the owner to stall before the third effect', async () => stalling !== null, {
        timeoutMs: scaledWait(20_000),
      });
      expect(stalling).toBe(owner);
      leaseConnections[owner].disconnect();
      expect(effects).toHaveLength(2);
      await eventually('the successor performs the stalled effect', async () => effects.length === 3, {
        timeoutMs: scaledWait(20_000),
      });
      expect(effects[2]!.engine).toBe(successor);

      // The old owner wakes up: its fencing check refuses the effect it was about to perform.
      resume();
      await eventually('the old owner refused', async () => refusedAfterResume.length === 1, {
        timeoutMs: scaledWait(20_000),
      });
      expect(refusedAfterResume[0]).toBeInstanceOf(OwnershipLostError);

      const last = await appendTypes(store, `${name}-requests`, [requested]);
      expect(await runners[owner === 'one' ? 1 : 0]!.waitFor(last)).toBe(true);
      expect(effects.map((effect) => effect.engine)).toEqual([owner, owner, successor, successor]);
      expect(new Set(effects.map((effect) => effect.source)).size).toBe(4);
      expect(overlapped).toBe(false);
      const recorded = await store.readStream(`${name}-done`);
      expect(recorded.events.map((event) => (event.data as { source: string }).source)).toEqual(
        effects.map((effect) => effect.source),
      );
    } finally {
      resume();
      await Promise.all(runners.map((runner) => runner.stop()));
      await store.close();
      await executor.close();
    }
  }, 180_000);
});

import { eventually, scaledWait, testRedisUrl } from '@switchyard/testing';
import { Redis } from 'ioredis';
import { uniqueName } from '../test/projection-test-env';
import { BalancedLeases } from './balanced-leases';
import type { Ownership } from './ownership';

const redisUrl = testRedisUrl();
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis('BalancedLeases', () => {
  const GROUPS = 4;
  const members: BalancedLeases[] = [];
  const connections: Redis[] = [];
  afterEach(async () => {
    await Promise.all(members.splice(0).map((member) => member.close().catch(() => undefined)));
    await Promise.all(connections.splice(0).map((redis) => redis.quit().catch(() => undefined)));
  });
  /** One connection per "process", as separate engines would have. */
  const join = async (scope: string, ttlMs = 1500) => {
    const redis = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    connections.push(redis);
    const member = await BalancedLeases.over(redis, {
      scope,
      groups: GROUPS,
      ttlMs,
      // Processor `p<i>.<kind>` belongs to partition i.
      groupOf: (name) => (name.startsWith('p') ? `partition.${name.slice(1, name.indexOf('.'))}` : null),
    });
    members.push(member);
    return { member, redis };
  };
  /** Every process's runners retry every partition, as ProcessorRunner does while it waits. */
  const takeWhatIsFree = async (member: BalancedLeases, held: Map<string, Ownership>) => {
    for (let index = 0; index < GROUPS; index++)
      for (const kind of ['intake', 'timer']) {
        const name = `p${index}.${kind}`;
        const mine = held.get(name);
        if (mine && !mine.lost.aborted) continue;
        if (mine) await mine.release();
        held.delete(name);
        const ownership = await member.tryAcquire(name);
        if (ownership) held.set(name, ownership);
      }
  };

  it("shares the partitions out, one owner each, the processors of a partition together, and takes a dead member's over", async () => {
    const scope = uniqueName('balance');
    const { member: first } = await join(scope);
    const firstHeld = new Map<string, Ownership>();
    await takeWhatIsFree(first, firstHeld);
    expect(first.heldGroups()).toHaveLength(GROUPS);

    const { member: second, redis: secondConnection } = await join(scope);
    const secondHeld = new Map<string, Ownership>();
    // The first gives up what is above its share at its next heartbeat; the second takes it.
    await eventually(
      'the partitions are shared out',
      async () => {
        await takeWhatIsFree(first, firstHeld);
        await takeWhatIsFree(second, secondHeld);
        return first.heldGroups().length === GROUPS / 2 && second.heldGroups().length === GROUPS / 2;
      },
      { timeoutMs: scaledWait(20_000) },
    );
    expect(new Set([...first.heldGroups(), ...second.heldGroups()]).size).toBe(GROUPS);
    for (const group of second.heldGroups()) {
      const index = group.slice('partition.'.length);
      expect(secondHeld.get(`p${index}.intake`)?.held()).toBe(true);
      expect(secondHeld.get(`p${index}.timer`)?.held()).toBe(true);
      expect(firstHeld.get(`p${index}.intake`)?.held() ?? false).toBe(false);
    }

    // The second is cut off without a word (no release, no leaving): its leases and membership expire.
    secondConnection.disconnect();
    await eventually(
      'the first takes every partition back',
      async () => {
        await takeWhatIsFree(first, firstHeld);
        return first.heldGroups().length === GROUPS;
      },
      { timeoutMs: scaledWait(20_000) },
    );
  });
});

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { errorMessage, type ProjectionLogger } from '../logger';
import type { Ownership, OwnershipSource } from './ownership';
import { LEASE_KEY_PREFIX, RedisLeases } from './redis-lease';

/**
 * Says this member is alive until now + ttl (by Redis's clock, so members' clocks may differ),
 * forgets members whose time has passed, and answers how many are alive.
 */
const HEARTBEAT = `
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZADD', KEYS[1], ms + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 10)
return redis.call('ZCARD', KEYS[1])`;

export interface BalancedLeaseOptions {
  /** The deployment (deploymentId): members and leases of other deployments are not counted. */
  scope: string;
  /** Which group a processor's ownership belongs to (its partition), or null for a lease of its own. */
  groupOf(name: string): string | null;
  /** How many groups there are to share. */
  groups: number;
  /** Lease and membership lifetime without renewal. Default 10 s. */
  ttlMs?: number;
  logger?: ProjectionLogger;
}

/** One group's lease, shared by the processors of the group in this process. */
interface GroupLease {
  lease: Ownership;
  lost: AbortSignal;
  relinquish: AbortController;
  holders: number;
}

/**
 * Leases in Redis, shared out between the processes that take part (the engines): each process
 * says it is alive every third of the ttl, and holds at most ceil(groups / live processes) groups,
 * giving up the groups above that share when another process joins (its processors stop acting
 * at once and release the lease), and taking more once a process is gone (its leases expire
 * within the ttl). The processors of one group (a partition: its reactors and its timer) share
 * one lease, so a repository has one owner for all of them.
 */
export class BalancedLeases implements OwnershipSource {
  readonly kind = 'Redis lease (balanced)';
  readonly memberId = randomUUID();
  private readonly leases: RedisLeases;
  private readonly membersKey: string;
  private readonly ttlMs: number;
  private readonly held = new Map<string, GroupLease>();
  private live = 1;
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;

  private constructor(
    private readonly redis: Redis,
    private readonly ownsConnection: boolean,
    private readonly options: BalancedLeaseOptions,
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.leases = RedisLeases.over(redis, {
      scope: options.scope,
      ttlMs: this.ttlMs,
      logger: options.logger,
    });
    this.membersKey = `${LEASE_KEY_PREFIX}${options.scope}:members`;
  }

  /** Opens its own connection and joins: call close() to leave. */
  static async join(url: string, options: BalancedLeaseOptions): Promise<BalancedLeases> {
    const redis = new Redis(url);
    redis.on('error', (error: unknown) =>
      options.logger?.warn({ error: errorMessage(error) }, 'Redis lease connection'),
    );
    return BalancedLeases.start(new BalancedLeases(redis, true, options));
  }

  /** Joins over a connection the caller owns. */
  static async over(redis: Redis, options: BalancedLeaseOptions): Promise<BalancedLeases> {
    return BalancedLeases.start(new BalancedLeases(redis, false, options));
  }

  private static async start(leases: BalancedLeases): Promise<BalancedLeases> {
    await leases.beat();
    leases.timer = setInterval(
      () => {
        if (!leases.beating) leases.beating = leases.beat().finally(() => (leases.beating = null));
      },
      Math.max(1, Math.floor(leases.ttlMs / 3)),
    );
    leases.timer.unref();
    return leases;
  }

  /** The most groups this process may hold now. */
  get share(): number {
    return Math.ceil(this.options.groups / Math.max(1, this.live));
  }

  /** The groups whose lease this process holds now. */
  heldGroups(): string[] {
    return [...this.held.entries()].filter(([, group]) => !group.lost.aborted).map(([name]) => name);
  }

  async tryAcquire(name: string): Promise<Ownership | null> {
    const group = this.options.groupOf(name);
    if (group === null) return this.leases.tryAcquire(name);
    let held = this.held.get(group);
    if (held?.lost.aborted) return null; // Still being released by its other processors.
    if (!held) {
      if (this.heldGroups().length >= this.share) return null;
      const lease = await this.leases.tryAcquire(group);
      if (!lease) return null;
      // Another processor of the group may have taken it meanwhile.
      const raced = this.held.get(group);
      if (raced) {
        await lease.release();
        held = raced;
      } else {
        const relinquish = new AbortController();
        held = { lease, relinquish, lost: AbortSignal.any([lease.lost, relinquish.signal]), holders: 0 };
        this.held.set(group, held);
      }
    }
    return this.handle(group, held);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.redis.zrem(this.membersKey, this.memberId).catch(() => undefined);
    await this.leases.close();
    if (this.ownsConnection) await this.redis.quit().catch(() => undefined);
  }

  private handle(group: string, held: GroupLease): Ownership {
    held.holders += 1;
    let released = false;
    return {
      lost: held.lost,
      held: () => !released && !held.lost.aborted && held.lease.held(),
      release: async () => {
        if (released) return;
        released = true;
        held.holders -= 1;
        if (held.holders > 0) return;
        if (this.held.get(group) === held) this.held.delete(group);
        await held.lease.release();
      },
    };
  }

  /** Says this process is alive, learns how many are, and gives up the groups above its share. */
  private async beat(): Promise<void> {
    try {
      const live = await this.redis.eval(HEARTBEAT, 1, this.membersKey, this.memberId, this.ttlMs);
      this.live = Number(live);
    } catch (error) {
      this.options.logger?.warn({ error: errorMessage(error) }, 'lease membership heartbeat failed');
      return;
    }
    const groups = this.heldGroups().sort();
    for (const group of groups.slice(this.share)) {
      this.options.logger?.info(
        { group, share: this.share, live: this.live },
        'leaving a partition to another process',
      );
      this.held.get(group)?.relinquish.abort(new Error(`${group} was handed over to balance the processes`));
    }
  }
}

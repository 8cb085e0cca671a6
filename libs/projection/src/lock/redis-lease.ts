import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { errorMessage, type ProjectionLogger } from '../logger';
import type { Ownership, OwnershipSource } from './ownership';

/** Extends the lease only while it still holds our token. */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
/** Deletes the lease only while it still holds our token (compare-and-delete). */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export const LEASE_KEY_PREFIX = 'switchyard:lease:';

/** The Redis key of a lease: `switchyard:lease:[<scope>:]<name>`. */
export const leaseKey = (name: string, scope?: string): string =>
  `${LEASE_KEY_PREFIX}${scope ? `${scope}:` : ''}${name}`;

export interface RedisLeaseOptions {
  /**
   * Whose leases these are, part of every key: the deployment (deploymentId), so that deployments
   * sharing a Redis server do not take each other's leases. Default none.
   */
  scope?: string;
  /** How long a lease lives without renewal: the longest a dead owner delays its successor. Default 10 s. */
  ttlMs?: number;
  /** How often the owner renews it. Default a third of the ttl. */
  renewEveryMs?: number;
  logger?: ProjectionLogger;
}

/**
 * Ownership as a lease in Redis, for deployments whose processes share Redis: `SET key token NX
 * PX ttl` takes it, a compare-and-expire script renews it every third of the ttl, and a
 * compare-and-delete script releases it. The holder counts its lease valid until the ttl has
 * passed since it sent the last renewal that Redis confirmed (less a margin for clock drift), so
 * it stops acting before anyone else can take the lease over; a renewal that finds another token
 * marks the lease lost at once.
 */
export class RedisLeases implements OwnershipSource {
  readonly kind = 'Redis lease';
  private readonly ttlMs: number;
  private readonly renewEveryMs: number;

  private constructor(
    private readonly redis: Redis,
    private readonly ownsConnection: boolean,
    private readonly options: RedisLeaseOptions,
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.renewEveryMs = options.renewEveryMs ?? Math.max(1, Math.floor(this.ttlMs / 3));
    if (this.renewEveryMs >= this.ttlMs)
      throw new Error('A lease must be renewed more often than it expires');
  }

  /** Opens (and owns) its own connection. */
  static connect(url: string, options: RedisLeaseOptions = {}): RedisLeases {
    const redis = new Redis(url);
    // ioredis reconnects by itself; without a listener its errors would be printed to the console.
    redis.on('error', (error: unknown) =>
      options.logger?.warn({ error: errorMessage(error) }, 'Redis lease connection'),
    );
    return new RedisLeases(redis, true, options);
  }

  /** Leases over a connection the caller owns. */
  static over(redis: Redis, options: RedisLeaseOptions = {}): RedisLeases {
    return new RedisLeases(redis, false, options);
  }

  async tryAcquire(name: string): Promise<Ownership | null> {
    const key = leaseKey(name, this.options.scope);
    const token = randomUUID();
    const sentAt = performance.now();
    const taken = await this.redis.set(key, token, 'PX', this.ttlMs, 'NX');
    if (taken !== 'OK') return null;
    return new RedisLease(this.redis, key, token, this.ttlMs, this.renewEveryMs, sentAt, this.options.logger);
  }

  async close(): Promise<void> {
    if (this.ownsConnection) await this.redis.quit().catch(() => undefined);
  }
}

class RedisLease implements Ownership {
  private readonly controller = new AbortController();
  private validUntil: number;
  private renewal: NodeJS.Timeout | null = null;
  private deadline: NodeJS.Timeout | null = null;
  private released = false;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly token: string,
    private readonly ttlMs: number,
    private readonly renewEveryMs: number,
    sentAt: number,
    private readonly logger?: ProjectionLogger,
  ) {
    this.validUntil = this.validityFrom(sentAt);
    this.scheduleRenewal();
    this.watchDeadline();
  }

  get lost(): AbortSignal {
    return this.controller.signal;
  }

  held(): boolean {
    if (this.controller.signal.aborted || this.released) return false;
    if (performance.now() >= this.validUntil) {
      this.lose('it expired before a renewal was confirmed');
      return false;
    }
    return true;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.stopTimers();
    // Deletes nothing when the lease has expired and someone else holds the key now.
    await this.redis
      .eval(RELEASE, 1, this.key, this.token)
      .catch((error: unknown) =>
        this.logger?.warn({ lease: this.key, error: errorMessage(error) }, 'could not release the lease'),
      );
  }

  /** A margin for the two clocks' drift, so the holder gives up before Redis lets the key go. */
  private validityFrom(sentAt: number): number {
    return sentAt + this.ttlMs - Math.max(2, Math.ceil(this.ttlMs / 100));
  }

  private scheduleRenewal(): void {
    this.renewal = setTimeout(() => void this.renew(), this.renewEveryMs);
    this.renewal.unref();
  }

  private watchDeadline(): void {
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = setTimeout(() => this.held(), Math.max(0, this.validUntil - performance.now()));
    this.deadline.unref();
  }

  private async renew(): Promise<void> {
    if (!this.held()) return;
    const sentAt = performance.now();
    try {
      const renewed = await this.redis.eval(RENEW, 1, this.key, this.token, this.ttlMs);
      if (this.released || this.controller.signal.aborted) return;
      if (renewed !== 1) return this.lose('another process holds it now');
      this.validUntil = this.validityFrom(sentAt);
      this.watchDeadline();
    } catch (error) {
      // Redis does not answer: keep trying until the lease runs out (the deadline ends it).
      this.logger?.warn({ lease: this.key, error: errorMessage(error) }, 'lease renewal failed');
    }
    if (!this.released && !this.controller.signal.aborted) this.scheduleRenewal();
  }

  private lose(why: string): void {
    if (this.controller.signal.aborted) return;
    this.stopTimers();
    this.logger?.warn({ lease: this.key, why }, 'lease lost');
    this.controller.abort(new Error(`lease ${this.key} lost: ${why}`));
  }

  private stopTimers(): void {
    if (this.renewal) clearTimeout(this.renewal);
    if (this.deadline) clearTimeout(this.deadline);
    this.renewal = null;
    this.deadline = null;
  }
}

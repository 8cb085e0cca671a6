import type { Clock } from '@switchyard/kernel';
import type { CredentialRecord } from '../projection/credential-record';
import type { CredentialLookup } from './credential-resolver';

/**
 * How long a process may answer from a credential row it read, so a revocation made by another
 * process (the CLI, another api replica) is refused here within this bound.
 */
export const CREDENTIAL_CACHE_TTL_MS = 1000;

/** Enough for every credential an install plausibly has; beyond it the oldest read is dropped. */
const MAX_ENTRIES = 10_000;

interface Entry {
  record: CredentialRecord;
  /** When the lookup that produced it started: the row may have changed any time after. */
  readAt: number;
}

/**
 * Keeps the per-request credential lookup off the database: rows found by digest are reused for
 * at most CREDENTIAL_CACHE_TTL_MS. Only credentials that exist are kept, so random bearers cannot
 * push the real ones out. Expiry still holds: the resolver checks `expiresAt` against the time of
 * each request, whatever the row's age. invalidate() drops everything, including reads in flight,
 * so a change this process has just written is read afresh by the very next request.
 */
export class CachedCredentialLookup implements CredentialLookup {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by invalidate(); a read that started before the bump is not kept. */
  private generation = 0;

  constructor(
    private readonly source: CredentialLookup,
    private readonly clock: Clock,
  ) {}

  async findBySecretHash(secretHash: string): Promise<CredentialRecord | null> {
    const now = this.clock.now().getTime();
    const cached = this.fresh(secretHash, now);
    if (cached) return cached;
    const generation = this.generation;
    const record = await this.source.findBySecretHash(secretHash);
    if (record && generation === this.generation) this.keep(secretHash, { record, readAt: now });
    return record;
  }

  /** The record when it is in memory and fresh, without waiting; undefined when it must be read. */
  peek(secretHash: string): CredentialRecord | undefined {
    return this.entries.size === 0 ? undefined : this.fresh(secretHash, this.clock.now().getTime());
  }

  private fresh(secretHash: string, now: number): CredentialRecord | undefined {
    const cached = this.entries.get(secretHash);
    if (!cached) return undefined;
    // A clock that went back also ends the entry: its age is unknown.
    if (now >= cached.readAt && now - cached.readAt < CREDENTIAL_CACHE_TTL_MS) return cached.record;
    this.entries.delete(secretHash);
    return undefined;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private keep(secretHash: string, entry: Entry): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(secretHash, entry);
  }
}

import { performance } from 'node:perf_hooks';
import type { PauseView } from '../projections/merge-queue-pause.read-model';

/**
 * How long a process may answer GET pause from a row it read, so a pause or unpause written by
 * another process (the CLI, another api replica) shows here within this bound.
 */
export const PAUSE_CACHE_TTL_MS = 1000;

/** Beyond this many repositories the oldest read is dropped. */
const MAX_ENTRIES = 10_000;

interface Entry {
  pause: PauseView | null;
  /** When the read that produced it started (monotonic ms): the row may have changed any time after. */
  readAt: number;
}

/**
 * Keeps GET pause off the database: each repository's pause (or its absence) is reused for at most
 * PAUSE_CACHE_TTL_MS. The pause service calls invalidate() once its write has reached the read model
 * (or the wait for it ended), so the very next GET in this process reads the new row; a read still in flight at that moment is
 * not kept. Ages come from a monotonic clock, not the service clock, which tests may freeze.
 */
export class PauseReadCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by invalidate(); a read that started before the bump is not kept. */
  private generation = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  async read(repository: string, load: () => Promise<PauseView | null>): Promise<PauseView | null> {
    const now = this.now();
    const cached = this.entries.get(repository);
    if (cached) {
      if (now - cached.readAt < PAUSE_CACHE_TTL_MS) return cached.pause;
      this.entries.delete(repository);
    }
    const generation = this.generation;
    const pause = await load();
    if (generation === this.generation) this.keep(repository, { pause, readAt: now });
    return pause;
  }

  /** Forgets the repository's pause; reads in flight (of any repository) are not kept either. */
  invalidate(repository: string): void {
    this.generation += 1;
    this.entries.delete(repository);
  }

  private keep(repository: string, entry: Entry): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(repository, entry);
  }
}

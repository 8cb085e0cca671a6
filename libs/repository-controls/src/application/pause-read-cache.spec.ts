import type { PauseView } from '../projections/merge-queue-pause.read-model';
import { PAUSE_CACHE_TTL_MS, PauseReadCache } from './pause-read-cache';

/** The read model in memory: counts its reads, and can hold one read until released. */
class CountingTable {
  reads = 0;
  rows = new Map<string, PauseView>();
  holdNextRead = false;
  private held: (() => void) | null = null;

  load(repository: string): () => Promise<PauseView | null> {
    return async () => {
      this.reads += 1;
      const row = this.rows.get(repository) ?? null;
      if (this.holdNextRead) {
        this.holdNextRead = false;
        await new Promise<void>((resolve) => (this.held = resolve));
      }
      return row;
    };
  }

  release(): void {
    this.held?.();
  }
}

const paused = (reason: string): PauseView => ({ reason, pausedAt: new Date('2026-05-01T10:00:00Z') });

describe('PauseReadCache', () => {
  let now: number;
  let table: CountingTable;
  let cache: PauseReadCache;

  beforeEach(() => {
    now = 5000;
    table = new CountingTable();
    table.rows.set('acme/widgets', paused('INC-1'));
    cache = new PauseReadCache(() => now);
  });

  it('answers repeated reads of a repository from memory for at most one second', async () => {
    expect(PAUSE_CACHE_TTL_MS).toBeLessThanOrEqual(1000);
    expect(await cache.read('acme/widgets', table.load('acme/widgets'))).toEqual(paused('INC-1'));
    now += PAUSE_CACHE_TTL_MS - 1;
    await cache.read('acme/widgets', table.load('acme/widgets'));
    expect(table.reads).toBe(1);
    now += 1;
    await cache.read('acme/widgets', table.load('acme/widgets'));
    expect(table.reads).toBe(2);
  });

  it('keeps "not paused" too, per repository', async () => {
    expect(await cache.read('acme/other', table.load('acme/other'))).toBeNull();
    expect(await cache.read('acme/other', table.load('acme/other'))).toBeNull();
    expect(await cache.read('acme/widgets', table.load('acme/widgets'))).toEqual(paused('INC-1'));
    expect(table.reads).toBe(2);
  });

  it('reads the row afresh right after invalidate(), within the TTL', async () => {
    await cache.read('acme/widgets', table.load('acme/widgets'));
    table.rows.delete('acme/widgets');
    cache.invalidate('acme/widgets');
    expect(await cache.read('acme/widgets', table.load('acme/widgets'))).toBeNull();
    expect(table.reads).toBe(2);
  });

  it('does not keep a read that was in flight when invalidate() was called', async () => {
    table.holdNextRead = true;
    const inFlight = cache.read('acme/widgets', table.load('acme/widgets'));
    table.rows.set('acme/widgets', paused('INC-2'));
    cache.invalidate('acme/widgets');
    table.release();
    expect(await inFlight).toEqual(paused('INC-1'));
    expect(await cache.read('acme/widgets', table.load('acme/widgets'))).toEqual(paused('INC-2'));
    expect(table.reads).toBe(2);
  });

  it('only forgets the repository written to', async () => {
    await cache.read('acme/widgets', table.load('acme/widgets'));
    await cache.read('acme/other', table.load('acme/other'));
    cache.invalidate('acme/other');
    await cache.read('acme/widgets', table.load('acme/widgets'));
    expect(table.reads).toBe(2);
  });
});

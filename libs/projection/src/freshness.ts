import type { Position } from '@switchyard/event-store';

/**
 * Read-your-writes: a write endpoint calls waitFor(position of its last event) before answering, so
 * the caller's next read sees its change. Bounded: resolves false when the wait times out (the
 * events are durable either way; only the read model lags).
 */
export interface ReadModelFreshness {
  waitFor(position: Position | null, timeoutMs?: number): Promise<boolean>;
}

import type { Position } from '@switchyard/event-store';
import { BatchedCalls } from '@switchyard/kernel';

/** "Projection `name` has committed its checkpoint at `position`." */
export interface CheckpointUpdate {
  name: string;
  position: Position | 'start';
}

/** What a runner needs: announce each committed checkpoint. Best effort; the table is the truth. */
export interface CheckpointPublisher {
  publish(update: CheckpointUpdate): Promise<void>;
}

/**
 * Wakes readers in other processes (the api) when a projection moves, so they re-read
 * sy_projection_checkpoints instead of polling it. A lost message only delays a reader.
 */
export interface CheckpointSignal extends CheckpointPublisher {
  /** Returns the unsubscribe function. */
  subscribe(onUpdate: (update: CheckpointUpdate) => void): Promise<() => Promise<void>>;
}

/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more; Redis has no such limit. */
const MAX_PAYLOAD_BYTES = 7000;

/**
 * The wire form: a JSON array of updates. The processors of a process commit together after an
 * append, so one message carries all of them instead of one message each. Split in several
 * payloads only when one would be too long for NOTIFY.
 */
export function encodeCheckpointUpdates(updates: readonly CheckpointUpdate[]): string[] {
  const payloads: string[] = [];
  let parts: string[] = [];
  let bytes = 2;
  for (const update of updates) {
    const part = JSON.stringify({ name: update.name, position: update.position });
    const partBytes = Buffer.byteLength(part) + 1;
    if (parts.length > 0 && bytes + partBytes > MAX_PAYLOAD_BYTES) {
      payloads.push(`[${parts.join(',')}]`);
      parts = [];
      bytes = 2;
    }
    parts.push(part);
    bytes += partBytes;
  }
  if (parts.length > 0) payloads.push(`[${parts.join(',')}]`);
  return payloads;
}

/**
 * The updates a payload carries; a single object is what a process of the previous release sends
 * during a rolling upgrade. Anything else is ignored (foreign publishers on a shared channel).
 */
export function decodeCheckpointUpdates(payload: string): CheckpointUpdate[] {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return [];
  }
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { name, position } = item as Record<string, unknown>;
    return typeof name === 'string' && typeof position === 'string' ? [{ name, position }] : [];
  });
}

/**
 * Sends the updates published during one turn of the event loop together, keeping only the
 * newest position of each processor.
 */
export function batchedPublish(
  send: (payload: string) => Promise<unknown>,
): (update: CheckpointUpdate) => Promise<void> {
  const calls = new BatchedCalls<CheckpointUpdate, void>(async (updates) => {
    const newest = new Map(updates.map((update) => [update.name, update]));
    for (const payload of encodeCheckpointUpdates([...newest.values()])) await send(payload);
    return updates.map(() => undefined);
  });
  return (update) => calls.call(update);
}

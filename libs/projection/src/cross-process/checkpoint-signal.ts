import type { Position } from '@switchyard/event-store';

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

export const encodeCheckpointUpdate = (update: CheckpointUpdate): string =>
  JSON.stringify({ name: update.name, position: update.position });

/** Null for anything that is not an update (foreign publishers on a shared channel). */
export function decodeCheckpointUpdate(payload: string): CheckpointUpdate | null {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== 'object' || value === null) return null;
    const { name, position } = value as Record<string, unknown>;
    return typeof name === 'string' && typeof position === 'string' ? { name, position } : null;
  } catch {
    return null;
  }
}

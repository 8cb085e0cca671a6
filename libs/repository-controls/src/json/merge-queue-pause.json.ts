import { toRfc3339 } from '@switchyard/kernel';
import type { PauseView } from '../projections/merge-queue-pause.read-model';

/** MergeQueuePause: `{paused: false, reason: null, paused_at: null}` when not paused. */
export interface MergeQueuePauseJson {
  paused: boolean;
  reason: string | null;
  paused_at: string | null;
}

/** Legacy QueuePause, one per pause (so zero or one). */
export interface QueuePauseJson {
  reason: string;
  pause_date: string;
}

export const mergeQueuePauseJson = (pause: PauseView | null): MergeQueuePauseJson =>
  pause
    ? { paused: true, reason: pause.reason, paused_at: toRfc3339(pause.pausedAt) }
    : { paused: false, reason: null, paused_at: null };

export const legacyQueuePauseJson = (pause: PauseView | null): { queue_pause: QueuePauseJson[] } => ({
  queue_pause: pause ? [{ reason: pause.reason, pause_date: toRfc3339(pause.pausedAt) }] : [],
});

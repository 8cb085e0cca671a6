import type { Actor } from '@switchyard/kernel';

/**
 * Domain events of the repository-wide merge-queue pause. Type names are stable storage keys; times
 * are RFC 3339 strings (`at` is the command time), so the data is plain JSON.
 */
export interface MergeQueuePaused {
  type: 'merge_queue.paused';
  data: { repository: string; reason: string; actor: Actor; at: string };
}

/** A pause on an already paused queue: the reason changes, the pause keeps its original start. */
export interface MergeQueuePauseReasonChanged {
  type: 'merge_queue.pause_reason_changed';
  data: { repository: string; reason: string; pausedAt: string; actor: Actor; at: string };
}

export interface MergeQueueUnpaused {
  type: 'merge_queue.unpaused';
  data: { repository: string; actor: Actor; at: string };
}

export type MergeQueuePauseEvent = MergeQueuePaused | MergeQueuePauseReasonChanged | MergeQueueUnpaused;

export const mergeQueuePauseEventTypes: readonly MergeQueuePauseEvent['type'][] = [
  'merge_queue.paused',
  'merge_queue.pause_reason_changed',
  'merge_queue.unpaused',
];

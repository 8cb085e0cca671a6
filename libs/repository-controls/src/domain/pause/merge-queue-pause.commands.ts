import type { Actor } from '@switchyard/kernel';

/** Pause the queue, or change the reason of the running pause. */
export interface PauseMergeQueue {
  type: 'PauseMergeQueue';
  repository: string;
  reason: string;
  actor: Actor;
  at: Date;
}

export interface UnpauseMergeQueue {
  type: 'UnpauseMergeQueue';
  repository: string;
  actor: Actor;
  at: Date;
}

export type MergeQueuePauseCommand = PauseMergeQueue | UnpauseMergeQueue;

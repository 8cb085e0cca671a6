import { type Actor, checkStorableString, type Decider, notFound } from '@switchyard/kernel';
import { recordedAt } from './stream-time';

/*
 * The repository-wide merge-queue pause, as one aggregate: its commands, its events, its state, the
 * decider and the stream it lives on.
 */

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

/*
 * Event type names are stable storage keys; times are RFC 3339 strings (`at` is the command time),
 * so the data is plain JSON.
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

/** One pause stream per repository: the pause is repository-wide, not per branch. */
export const mergeQueuePauseStreamId = (repository: string): string => `merge_queue_pause-${repository}`;

export interface MergeQueuePauseState {
  pause: { reason: string; pausedAt: string } | null;
  /** Time of the stream's last event, so later events never go back in time. */
  lastAt: string | null;
}

export const PAUSE_REASON_MAX_CODE_POINTS = 255;

/** The detail the CLI expects verbatim when it unpauses a queue that is not paused. */
export const NOT_PAUSED_MESSAGE = 'The merge queue is not paused';

const pause = (command: PauseMergeQueue, state: MergeQueuePauseState): MergeQueuePauseEvent[] => {
  checkStorableString('repository', command.repository);
  checkStorableString('reason', command.reason, PAUSE_REASON_MAX_CODE_POINTS);
  const at = recordedAt(command.at, state.lastAt).toISOString();
  const { repository, reason, actor } = command;
  if (!state.pause) return [{ type: 'merge_queue.paused', data: { repository, reason, actor, at } }];
  // Always recorded, even with the same reason: the log shows who re-affirmed the pause and when.
  return [
    {
      type: 'merge_queue.pause_reason_changed',
      data: { repository, reason, pausedAt: state.pause.pausedAt, actor, at },
    },
  ];
};

const unpause = (command: UnpauseMergeQueue, state: MergeQueuePauseState): MergeQueuePauseEvent[] => {
  if (!state.pause) throw notFound(NOT_PAUSED_MESSAGE);
  const { repository, actor } = command;
  return [
    {
      type: 'merge_queue.unpaused',
      data: { repository, actor, at: recordedAt(command.at, state.lastAt).toISOString() },
    },
  ];
};

export const mergeQueuePauseDecider: Decider<
  MergeQueuePauseState,
  MergeQueuePauseCommand,
  MergeQueuePauseEvent
> = {
  initialState: () => ({ pause: null, lastAt: null }),
  decide(command, state) {
    switch (command.type) {
      case 'PauseMergeQueue':
        return pause(command, state);
      case 'UnpauseMergeQueue':
        return unpause(command, state);
    }
  },
  evolve(state, event) {
    const lastAt = event.data.at;
    switch (event.type) {
      case 'merge_queue.paused':
        return { pause: { reason: event.data.reason, pausedAt: event.data.at }, lastAt };
      case 'merge_queue.pause_reason_changed':
        return { pause: { reason: event.data.reason, pausedAt: event.data.pausedAt }, lastAt };
      case 'merge_queue.unpaused':
        return { pause: null, lastAt };
      default:
        return state;
    }
  },
};

import type { JsonValue } from '../types';
import type { SnapshotPolicy, SnapshottingDecider } from '../application/snapshot-policy';

/**
 * A merge-queue-shaped decider for snapshot tests and the hot-stream benchmark: an ordered list of
 * pull requests and a pause flag, where what a command does depends on the whole history.
 */
export type QueueCommand =
  | { kind: 'enqueue'; pullRequest: number }
  | { kind: 'dequeue'; pullRequest: number }
  | { kind: 'pause'; reason: string }
  | { kind: 'unpause' };

export type QueueEvent =
  | { type: 'Queued'; data: { pullRequest: number } }
  | { type: 'Dequeued'; data: { pullRequest: number } }
  | { type: 'Paused'; data: { reason: string } }
  | { type: 'Unpaused'; data: Record<string, never> };

export interface QueueState {
  queue: number[];
  pausedFor: string | null;
  /** How many times anything happened: a fold that skipped or repeated an event shows here. */
  changes: number;
}

const decider: SnapshottingDecider<QueueState, QueueCommand, QueueEvent> = {
  initialState: () => ({ queue: [], pausedFor: null, changes: 0 }),
  evolve(state, event) {
    const changes = state.changes + 1;
    switch (event.type) {
      case 'Queued':
        return { ...state, queue: [...state.queue, event.data.pullRequest], changes };
      case 'Dequeued':
        return { ...state, queue: state.queue.filter((pr) => pr !== event.data.pullRequest), changes };
      case 'Paused':
        return { ...state, pausedFor: event.data.reason, changes };
      case 'Unpaused':
        return { ...state, pausedFor: null, changes };
    }
  },
  decide(command, state) {
    switch (command.kind) {
      case 'enqueue':
        return state.queue.includes(command.pullRequest) || state.pausedFor !== null
          ? []
          : [{ type: 'Queued', data: { pullRequest: command.pullRequest } }];
      case 'dequeue':
        return state.queue.includes(command.pullRequest)
          ? [{ type: 'Dequeued', data: { pullRequest: command.pullRequest } }]
          : [];
      case 'pause':
        return state.pausedFor === command.reason
          ? []
          : [{ type: 'Paused', data: { reason: command.reason } }];
      case 'unpause':
        return state.pausedFor === null ? [] : [{ type: 'Unpaused', data: {} }];
    }
  },
};

/** The decider without snapshots: every command folds the whole stream. */
export const foldingQueueDecider = decider;

export const queueSnapshots = (every: number, version = 1): SnapshotPolicy<QueueState> => ({
  name: 'test-queue',
  version,
  every,
  toSnapshot: (state) => ({ ...state }) as unknown as JsonValue,
  fromSnapshot: (snapshot) => snapshot as unknown as QueueState,
});

export const snapshottingQueueDecider = (
  every: number,
  version = 1,
): SnapshottingDecider<QueueState, QueueCommand, QueueEvent> => ({
  ...decider,
  snapshots: queueSnapshots(every, version),
});

import type { JsonValue } from '@switchyard/event-store';
import type { SnapshotPolicy, SnapshottingDecider } from '@switchyard/event-store/application';
import type { MergeQueueCommand } from '../domain/commands';
import { mergeQueueDecider } from '../domain/decider';
import type { MergeQueueEvent } from '../domain/events';
import type { QueueState } from '../domain/state';

/** One stream per queue: a repository's base branch. */
export const mergeQueueStreamId = (repository: string, baseRef: string): string =>
  `merge_queue-${repository.toLowerCase()}-${baseRef}`;

/**
 * The queue's stream is hot (tens of events per merged pull request), so its state is
 * snapshotted. The state is plain JSON already; bump the version whenever its shape changes.
 */
export const snapshottingMergeQueueDecider: SnapshottingDecider<
  QueueState,
  MergeQueueCommand,
  MergeQueueEvent
> & {
  snapshots: SnapshotPolicy<QueueState>;
} = {
  ...mergeQueueDecider,
  snapshots: {
    name: 'merge-queue',
    // 4: branchesToDelete and the re-queue rule's leave records (states of an earlier version
    // start again from the events, which fill both). 5: each entry's last checked batch and a
    // bisection's unverified drops, for the log's Mergify fields. 6: the pull requests it saw
    // merged, which never enter again.
    version: 6,
    toSnapshot: (state) => JSON.parse(JSON.stringify(state)) as JsonValue,
    fromSnapshot: (snapshot) => snapshot as unknown as QueueState,
  },
};

import type { RecordedEvent } from '@switchyard/event-store';
import type { MergeQueueEvent } from '../domain/events';
import { evolveStatus, initialStatusFold, type QueueStatusFold } from './status-fold';

export const ACTIVITY_BUCKET_MS = 60_000;
/** A queue's fold is kept aside every this many of its events, so `?at=` folds at most this many. */
export const HISTORY_EVERY = 50;
const QUEUE_STREAM_PREFIX = 'merge_queue-';

/** A queue's row in the status table. */
export interface QueueStatusRow {
  repositoryKey: string;
  baseRef: string;
  /** The stream that first wrote the row: later upserts keep it, and apply reads folds back by it. */
  streamId: string;
  revision: bigint;
  firstEventAt: number;
  active: boolean;
  fold: QueueStatusFold;
}

/** A fold kept aside for `?at=`, serialised when its revision was folded. */
export interface HistoryPoint {
  revision: bigint;
  lastEventAt: number;
  fold: string;
}

/** What one batch's events of one stream add to the read model. */
export interface FoldedBatch {
  history: HistoryPoint[];
  /** The row to upsert and the minutes with events; null when the fold names no queue yet. */
  status: { row: QueueStatusRow; minutes: ReadonlySet<number> } | null;
}

/** A batch's events on queue streams, per stream, streams in the order they first appear. */
export function eventsByQueueStream(events: readonly RecordedEvent[]): Map<string, RecordedEvent[]> {
  const byStream = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    if (!event.streamId.startsWith(QUEUE_STREAM_PREFIX)) continue;
    const streamEvents = byStream.get(event.streamId);
    if (streamEvents) streamEvents.push(event);
    else byStream.set(event.streamId, [event]);
  }
  return byStream;
}

/**
 * Folds one stream's events of a batch onto what its status row held before the batch (null: no
 * row with this stream id), as the projection's apply does.
 */
export function foldQueueBatch(
  streamId: string,
  stored: { revision: bigint; fold: QueueStatusFold } | null,
  events: readonly RecordedEvent[],
): FoldedBatch {
  let revision = stored?.revision ?? -1n;
  let fold = stored?.fold ?? initialStatusFold();
  let lastEventAt = 0;
  const minutes = new Set<number>();
  const history: HistoryPoint[] = [];
  for (const event of events) {
    // Replays after a crash may hand back events already folded: the revision says which.
    if (event.revision <= revision) continue;
    const domainEvent = { type: event.type, data: event.data } as MergeQueueEvent;
    fold = evolveStatus(fold, domainEvent);
    revision = event.revision;
    lastEventAt = Date.parse(domainEvent.data.occurredAt);
    minutes.add(Math.floor(lastEventAt / ACTIVITY_BUCKET_MS));
    if ((revision + 1n) % BigInt(HISTORY_EVERY) === 0n)
      history.push({ revision, lastEventAt, fold: JSON.stringify(fold) });
  }
  const { repository, baseRef } = fold.queue;
  if (repository === null || baseRef === null || lastEventAt === 0) return { history, status: null };
  const row: QueueStatusRow = {
    repositoryKey: repository.toLowerCase(),
    baseRef,
    streamId,
    revision,
    firstEventAt: fold.firstEventAt ?? lastEventAt,
    active: Object.keys(fold.queue.pullRequests).length > 0,
    fold,
  };
  return { history, status: { row, minutes } };
}

import { DEQUEUE_REASONS, type DequeueReason } from '@switchyard/kernel';
import type { MergeQueueEvent } from '../domain/events';

/**
 * What a batch came to, as the events tell it apart: its checks passed (or a later passing batch
 * covered it under skip_intermediate_results), failed for good, were split to find the broken
 * change, or it was torn down before its checks said anything (a batch ahead failed, a reset…).
 * A failed batch that is then split counts once as failed and once as bisected.
 */
export const BATCH_OUTCOMES = ['passed', 'covered', 'failed', 'bisected', 'cancelled'] as const;
export type BatchOutcome = (typeof BATCH_OUTCOMES)[number];

/** The one thing an event adds to the queue's statistics; `at` is the engine's clock, in ms. */
export type QueueFact =
  | { kind: 'merged'; at: number; secondsToMerge: number }
  | { kind: 'checks_started'; at: number }
  | { kind: 'dequeued'; at: number; reason: DequeueReason }
  | { kind: 'batch'; at: number; outcome: BatchOutcome };

const KNOWN_REASONS: ReadonlySet<string> = new Set(DEQUEUE_REASONS);

/**
 * The statistics fact of one merge-queue event, or null for the events statistics do not count.
 * A merge is timed from the moment the pull request entered the queue (queuedAt) to the merge; a
 * dequeue is a pull request that left without merging, counted under its code (NONE when the
 * event names none).
 */
export function queueFactOf(event: MergeQueueEvent): QueueFact | null {
  const at = Date.parse(event.data.occurredAt);
  if (Number.isNaN(at)) return null;
  switch (event.type) {
    case 'merge_queue.pull_request_merged': {
      const queuedAt = Date.parse(event.data.queuedAt);
      const seconds = Number.isNaN(queuedAt) ? 0 : Math.max(0, (at - queuedAt) / 1000);
      return { kind: 'merged', at, secondsToMerge: seconds };
    }
    case 'merge_queue.checks_started':
      return { kind: 'checks_started', at };
    case 'merge_queue.pull_request_left': {
      if (event.data.merged) return null;
      const code = event.data.dequeueCode ?? 'NONE';
      return { kind: 'dequeued', at, reason: KNOWN_REASONS.has(code) ? code : 'NONE' };
    }
    case 'merge_queue.batch_passed':
      return { kind: 'batch', at, outcome: event.data.covered ? 'covered' : 'passed' };
    case 'merge_queue.batch_failed':
      return { kind: 'batch', at, outcome: 'failed' };
    case 'merge_queue.batch_bisection_started':
      return { kind: 'batch', at, outcome: 'bisected' };
    case 'merge_queue.batch_dissolved':
      return { kind: 'batch', at, outcome: 'cancelled' };
    default:
      return null;
  }
}

/** The event types queueFactOf reads: the projection subscribes to these only. */
export const QUEUE_FACT_EVENT_TYPES = [
  'merge_queue.pull_request_merged',
  'merge_queue.checks_started',
  'merge_queue.pull_request_left',
  'merge_queue.batch_passed',
  'merge_queue.batch_failed',
  'merge_queue.batch_bisection_started',
  'merge_queue.batch_dissolved',
] as const satisfies readonly MergeQueueEvent['type'][];

import type { MergeQueueEvent, QueueCheck } from '../domain/events';
import { evolveQueue, initialQueueState, type QueueState } from '../domain/state';

/**
 * What the status endpoints serve for one queue: the queue decider's own state, plus the few facts
 * its state forgets once decided (when a batch's CI ended, the checks it reported, the CI durations
 * observed per queue rule for the ETA, when the pause began). Plain JSON, folded event by event.
 */
export interface BatchFacts {
  ciFinishedAt: number | null;
  checks: QueueCheck[];
  passed: boolean;
  /** Merged (or to merge) on the strength of a later batch's CI (skip_intermediate_results). */
  covered: boolean;
}

export interface QueueStatusFold {
  queue: QueueState;
  batches: Record<string, BatchFacts>;
  /** Recent CI durations in seconds, per queue rule name, oldest first. */
  ciSeconds: Record<string, number[]>;
  pausedAt: number | null;
  firstEventAt: number | null;
}

/** How many observed CI durations per rule the rolling median reads. */
export const CI_DURATIONS_KEPT = 20;

export const initialStatusFold = (): QueueStatusFold => ({
  queue: initialQueueState(),
  batches: {},
  ciSeconds: {},
  pausedAt: null,
  firstEventAt: null,
});

const noFacts = (): BatchFacts => ({ ciFinishedAt: null, checks: [], passed: false, covered: false });

export function evolveStatus(fold: QueueStatusFold, event: MergeQueueEvent): QueueStatusFold {
  const at = Date.parse(event.data.occurredAt);
  const next: QueueStatusFold = {
    ...fold,
    queue: evolveQueue(fold.queue, event),
    firstEventAt: fold.firstEventAt ?? at,
  };
  const live = new Set(next.queue.batches.map((batch) => batch.id));
  const withFacts = (id: string | null, change: (facts: BatchFacts) => BatchFacts) => {
    if (id === null || !live.has(id)) return;
    next.batches = { ...next.batches, [id]: change(next.batches[id] ?? noFacts()) };
  };
  switch (event.type) {
    case 'merge_queue.batch_preparing':
      withFacts(event.data.trainCarId, () => noFacts());
      break;
    case 'merge_queue.checks_ended':
      withFacts(event.data.trainCarId, (facts) => ({
        ...facts,
        ciFinishedAt: event.data.abortCode === 'CHECKS_RETRIED' ? null : at,
        checks: event.data.speculativeCheck.unsuccessfulChecks,
      }));
      break;
    case 'merge_queue.batch_passed': {
      const batch = fold.queue.batches.find((b) => b.id === event.data.trainCarId);
      withFacts(event.data.trainCarId, (facts) => ({
        ...facts,
        passed: true,
        covered: event.data.covered,
        ciFinishedAt: facts.ciFinishedAt ?? at,
      }));
      if (batch && event.data.checksSeconds !== null && !event.data.covered) {
        const seen = [...(next.ciSeconds[batch.queueName] ?? []), event.data.checksSeconds];
        next.ciSeconds = { ...next.ciSeconds, [batch.queueName]: seen.slice(-CI_DURATIONS_KEPT) };
      }
      break;
    }
    case 'merge_queue.batch_failed':
      withFacts(event.data.trainCarId, (facts) => ({
        ...facts,
        ciFinishedAt: facts.ciFinishedAt ?? at,
        checks: event.data.unsuccessfulChecks,
      }));
      break;
    case 'merge_queue.pause_observed':
      next.pausedAt = event.data.paused ? (fold.queue.paused ? fold.pausedAt : at) : null;
      break;
    default:
      break;
  }
  // Facts of batches that left the train are dropped with them.
  if (Object.keys(next.batches).some((id) => !live.has(id))) {
    next.batches = Object.fromEntries(Object.entries(next.batches).filter(([id]) => live.has(id)));
  }
  return next;
}

import type { MergeQueueEvent, QueueCheck } from '../domain/events';
import {
  evolveQueue,
  initialQueueState,
  type Batch,
  type QueueEntry,
  type QueueState,
} from '../domain/state';

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
  /** Its pull requests merged so far, as they were queued (they left the queue's state). */
  merged?: QueueEntry[];
}

/**
 * A batch that left the train but is still shown (queue-semantics §2.12): `merged` once its last
 * pull request merged, until the next batch's checks start or another batch merges;
 * `waiting_for_requeue` once torn down because a batch ahead failed, until its pull requests are
 * batched again (or leave). `batch.pullRequests` are the ones it shows.
 */
export interface DepartedBatch {
  code: 'merged' | 'waiting_for_requeue';
  batch: Batch;
  facts: BatchFacts;
  at: number;
}

export interface QueueStatusFold {
  queue: QueueState;
  batches: Record<string, BatchFacts>;
  /** Recent CI durations in seconds, per queue rule name, oldest first. */
  ciSeconds: Record<string, number[]>;
  pausedAt: number | null;
  firstEventAt: number | null;
  /** Absent from folds kept before departed batches were shown. */
  departed?: DepartedBatch[];
}

/** How many observed CI durations per rule the rolling median reads. */
export const CI_DURATIONS_KEPT = 20;

export const initialStatusFold = (): QueueStatusFold => ({
  queue: initialQueueState(),
  batches: {},
  ciSeconds: {},
  pausedAt: null,
  firstEventAt: null,
  departed: [],
});

const noFacts = (): BatchFacts => ({ ciFinishedAt: null, checks: [], passed: false, covered: false });

/**
 * Every pull request a status answer of this fold describes, whose snapshot it shows (title,
 * author, labels, checks): the queued ones, those already merged from a batch still listed (live,
 * or `merged` until the next batch starts), and each listed batch's check pull request.
 */
export function pullRequestsShownBy(fold: QueueStatusFold): number[] {
  const shown = new Set(Object.keys(fold.queue.pullRequests).map(Number));
  const batches = [...fold.queue.batches, ...(fold.departed ?? []).map((departed) => departed.batch)];
  for (const batch of batches) {
    for (const number of batch.pullRequests) shown.add(number);
    if (batch.checkPullRequest !== null) shown.add(batch.checkPullRequest);
  }
  const facts = [...Object.values(fold.batches), ...(fold.departed ?? []).map((departed) => departed.facts)];
  for (const { merged } of facts) for (const entry of merged ?? []) shown.add(entry.number);
  return [...shown];
}

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
    case 'merge_queue.checks_started':
      // The next batch started: the merged one is history now.
      if (event.data.trainCarId !== null && next.departed?.some((d) => d.code === 'merged'))
        next.departed = next.departed.filter((d) => d.code !== 'merged');
      break;
    case 'merge_queue.pull_request_merged': {
      const number = event.data.pullRequest;
      const batch = fold.queue.batches.find((b) => b.pullRequests.includes(number));
      const entry = fold.queue.pullRequests[number];
      if (!batch || !entry) break;
      const facts = next.batches[batch.id] ?? noFacts();
      const merged = [...(facts.merged ?? []), entry];
      if (live.has(batch.id)) {
        next.batches = { ...next.batches, [batch.id]: { ...facts, merged } };
        break;
      }
      const shown: DepartedBatch = {
        code: 'merged',
        batch: { ...batch, pullRequests: merged.map((pr) => pr.number) },
        facts: { ...facts, merged },
        at,
      };
      next.departed = [...(next.departed ?? []).filter((d) => d.code !== 'merged'), shown];
      break;
    }
    case 'merge_queue.batch_dissolved': {
      const batch = fold.queue.batches.find((b) => b.id === event.data.trainCarId);
      if (!batch || event.data.abortCode !== 'BATCH_AHEAD_FAILED') break;
      const shown: DepartedBatch = {
        code: 'waiting_for_requeue',
        batch: { ...batch, pullRequests: event.data.returnedPullRequests },
        facts: next.batches[batch.id] ?? noFacts(),
        at,
      };
      next.departed = [...(next.departed ?? []), shown];
      break;
    }
    case 'merge_queue.pause_observed':
      next.pausedAt = event.data.paused ? (fold.queue.paused ? fold.pausedAt : at) : null;
      break;
    default:
      break;
  }
  // A batch waiting for requeue shows its pull requests until they ride in a batch again or leave.
  if (next.departed?.some((d) => d.code === 'waiting_for_requeue')) {
    const stillWaiting = (n: number) => next.queue.pullRequests[n]?.batchId === null;
    next.departed = next.departed.flatMap((d) => {
      if (d.code !== 'waiting_for_requeue') return [d];
      const pullRequests = d.batch.pullRequests.filter(stillWaiting);
      if (pullRequests.length === d.batch.pullRequests.length) return [d];
      return pullRequests.length === 0 ? [] : [{ ...d, batch: { ...d.batch, pullRequests } }];
    });
  }
  // Facts of batches that left the train are dropped with them.
  if (Object.keys(next.batches).some((id) => !live.has(id))) {
    next.batches = Object.fromEntries(Object.entries(next.batches).filter(([id]) => live.has(id)));
  }
  return next;
}

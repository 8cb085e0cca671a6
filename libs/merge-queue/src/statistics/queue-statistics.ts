import { DEQUEUE_REASONS, type DequeueReason } from '@switchyard/kernel';
import { BATCH_OUTCOMES, type BatchOutcome, type QueueFact } from './queue-facts';

export const HOUR_MS = 3_600_000;

/** A half-open window of time, [since, until), in ms. */
export interface StatisticsWindow {
  since: number;
  until: number;
}

export interface QueueStatistics {
  window: StatisticsWindow;
  merged: number;
  /** One count per hour of the window, from the hour that holds `since`; each starts on the hour. */
  mergedPerHour: { hourStart: number; merged: number }[];
  /** From entering the queue to merged; null when nothing merged in the window. */
  timeToMergeSeconds: { p50: number | null; p95: number | null };
  /** Checks started in the window (each draft or in-place run, retries included). */
  ciRuns: number;
  ciRunsPerMergedPullRequest: number | null;
  /** Pull requests that left without merging, per reason, in DEQUEUE_REASONS order; only reasons seen. */
  dequeueReasons: { reason: DequeueReason; count: number }[];
  /** Batches per outcome, in BATCH_OUTCOMES order; every outcome, zero included. */
  batchOutcomes: { outcome: BatchOutcome; count: number }[];
}

/** The nearest-rank percentile of sorted values: the smallest value with at least q of them at or below. */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

/** The queue's statistics over a window, from the facts of its events (facts outside it are ignored). */
export function queueStatistics(facts: Iterable<QueueFact>, window: StatisticsWindow): QueueStatistics {
  const firstHour = Math.floor(window.since / HOUR_MS) * HOUR_MS;
  const hours = Math.max(1, Math.ceil((window.until - firstHour) / HOUR_MS));
  const perHour = new Array<number>(hours).fill(0);
  const mergeSeconds: number[] = [];
  const reasons = new Map<DequeueReason, number>();
  const outcomes = new Map<BatchOutcome, number>();
  let ciRuns = 0;
  for (const fact of facts) {
    if (fact.at < window.since || fact.at >= window.until) continue;
    switch (fact.kind) {
      case 'merged':
        perHour[Math.floor((fact.at - firstHour) / HOUR_MS)]! += 1;
        mergeSeconds.push(fact.secondsToMerge);
        break;
      case 'checks_started':
        ciRuns += 1;
        break;
      case 'dequeued':
        reasons.set(fact.reason, (reasons.get(fact.reason) ?? 0) + 1);
        break;
      case 'batch':
        outcomes.set(fact.outcome, (outcomes.get(fact.outcome) ?? 0) + 1);
        break;
    }
  }
  mergeSeconds.sort((a, b) => a - b);
  const merged = mergeSeconds.length;
  return {
    window,
    merged,
    mergedPerHour: perHour.map((count, index) => ({ hourStart: firstHour + index * HOUR_MS, merged: count })),
    timeToMergeSeconds: { p50: percentile(mergeSeconds, 0.5), p95: percentile(mergeSeconds, 0.95) },
    ciRuns,
    ciRunsPerMergedPullRequest: merged === 0 ? null : ciRuns / merged,
    dequeueReasons: DEQUEUE_REASONS.filter((reason) => reasons.has(reason)).map((reason) => ({
      reason,
      count: reasons.get(reason)!,
    })),
    batchOutcomes: BATCH_OUTCOMES.map((outcome) => ({ outcome, count: outcomes.get(outcome) ?? 0 })),
  };
}

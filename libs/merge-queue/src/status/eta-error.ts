import type { MergeQueueEvent } from '../domain/events';
import { estimateQueue, median } from './eta';
import { evolveStatus, initialStatusFold } from './status-fold';

export interface EtaErrorReport {
  /** Predictions compared with the merge that followed. */
  samples: number;
  /** Median |actual merge − estimated merge| / median CI duration; null without samples. */
  medianAbsoluteErrorOverCi: number | null;
  /** The 90th percentile of the same ratio. */
  p90AbsoluteErrorOverCi: number | null;
}

/**
 * Measures the ETA model over a queue's events (a simulator run): whenever a batch's checks start,
 * the estimated merge time of each of its pull requests is recorded, and compared with the time
 * the pull request merged. The error is expressed in CI durations (the median of those observed in
 * the run), so runs with different CI lengths compare. Pull requests that never merged are left out.
 */
export function measureEtaError(events: readonly MergeQueueEvent[]): EtaErrorReport {
  let fold = initialStatusFold();
  const predicted = new Map<number, number>();
  const errorsMs: number[] = [];
  const ciSeconds: number[] = [];
  for (const event of events) {
    fold = evolveStatus(fold, event);
    const at = Date.parse(event.data.occurredAt);
    if (event.type === 'merge_queue.batch_passed' && event.data.checksSeconds !== null && !event.data.covered)
      ciSeconds.push(event.data.checksSeconds);
    if (event.type === 'merge_queue.checks_started' && event.data.trainCarId !== null) {
      const estimates = estimateQueue(fold, at);
      for (const pr of event.data.pullRequests) {
        const mergeAt = estimates.pullRequests[pr.number]?.mergeAt;
        if (mergeAt !== null && mergeAt !== undefined) predicted.set(pr.number, mergeAt);
        else predicted.delete(pr.number);
      }
    }
    if (event.type === 'merge_queue.pull_request_merged') {
      const estimate = predicted.get(event.data.pullRequest);
      if (estimate !== undefined) errorsMs.push(Math.abs(at - estimate));
      predicted.delete(event.data.pullRequest);
    }
    if (event.type === 'merge_queue.pull_request_left' && !event.data.merged)
      predicted.delete(event.data.pullRequest);
  }
  const ci = median(ciSeconds);
  if (ci === null || ci === 0 || errorsMs.length === 0)
    return { samples: errorsMs.length, medianAbsoluteErrorOverCi: null, p90AbsoluteErrorOverCi: null };
  const ratios = errorsMs.map((ms) => ms / (ci * 1000)).sort((a, b) => a - b);
  return {
    samples: ratios.length,
    medianAbsoluteErrorOverCi: median(ratios),
    p90AbsoluteErrorOverCi: ratios[Math.min(ratios.length - 1, Math.ceil(0.9 * ratios.length) - 1)]!,
  };
}

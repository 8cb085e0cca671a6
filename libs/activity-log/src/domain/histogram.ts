import type { TimeWindow } from './log-query';

/**
 * Histogram interval rule: the smallest step of a fixed ladder (1 min, 5 min, 15 min, 1 h, 3 h, 6 h,
 * 12 h, 1 day) that covers the window in at most 100 buckets. Buckets are aligned on the Unix epoch
 * (what PostgreSQL's date_bin does), so they fall on round UTC times and tile the window without
 * gaps: the first starts at or before received_from, the last ends after received_to. So 1 hour
 * gives 1-minute buckets, a day 15-minute ones, a week 3-hour ones, 30 days 12-hour ones and 93
 * days daily ones. Every step of an hour or more is a whole number of hours, which lets hourly
 * rollups serve those histograms.
 */
export const HISTOGRAM_LADDER_SECONDS = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400] as const;
export const MAX_HISTOGRAM_BUCKETS = 100;

/** Index of the epoch-aligned bucket holding this instant. */
export const bucketIndex = (at: Date, intervalSeconds: number): number =>
  Math.floor(at.getTime() / (intervalSeconds * 1000));

export const bucketCount = (window: TimeWindow, intervalSeconds: number): number =>
  bucketIndex(window.to, intervalSeconds) - bucketIndex(window.from, intervalSeconds) + 1;

export function histogramInterval(window: TimeWindow): number {
  const fitting = HISTOGRAM_LADDER_SECONDS.find((step) => bucketCount(window, step) <= MAX_HISTOGRAM_BUCKETS);
  return fitting ?? HISTOGRAM_LADDER_SECONDS[HISTOGRAM_LADDER_SECONDS.length - 1];
}

export interface HistogramBucket {
  start: Date;
  end: Date;
  count: number;
}

/** Every bucket of the window, zero-filled, from counts keyed by bucket index. */
export function histogramBuckets(
  window: TimeWindow,
  intervalSeconds: number,
  counts: ReadonlyMap<number, number>,
): HistogramBucket[] {
  const step = intervalSeconds * 1000;
  const buckets: HistogramBucket[] = [];
  for (
    let index = bucketIndex(window.from, intervalSeconds);
    index <= bucketIndex(window.to, intervalSeconds);
    index++
  ) {
    buckets.push({
      start: new Date(index * step),
      end: new Date((index + 1) * step),
      count: counts.get(index) ?? 0,
    });
  }
  return buckets;
}

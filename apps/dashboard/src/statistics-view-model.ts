/** The statistics page's reading of GET …/merge-queue/statistics (a Switchyard extension). */

export interface QueueStatisticsJson {
  branch: string | null;
  since: string;
  until: string;
  merged: number;
  merged_per_hour: { hour: string; merged: number }[];
  time_to_merge_seconds: { p50: number | null; p95: number | null };
  ci_runs: number;
  ci_runs_per_merged_pull_request: number | null;
  dequeue_reasons: { reason: string; count: number }[];
  batch_outcomes: { outcome: string; count: number }[];
}

/** The windows the page offers, the last `hours` up to now. */
export const STATISTICS_WINDOWS = [
  { key: '24h', hours: 24, label: 'Last 24 hours' },
  { key: '7d', hours: 7 * 24, label: 'Last 7 days' },
  { key: '30d', hours: 30 * 24, label: 'Last 30 days' },
] as const;

export type StatisticsWindowKey = (typeof STATISTICS_WINDOWS)[number]['key'];

/** The window a `?window=` names; the first one for anything else. */
export function windowOf(key: string | null): (typeof STATISTICS_WINDOWS)[number] {
  return STATISTICS_WINDOWS.find((window) => window.key === key) ?? STATISTICS_WINDOWS[0];
}

/** The endpoint's query for one branch over the last `hours` before `now`. */
export function statisticsQuery(branch: string, hours: number, now: number): string {
  const query = new URLSearchParams();
  query.set('branch', branch);
  query.set('since', new Date(now - hours * 3_600_000).toISOString());
  query.set('until', new Date(now).toISOString());
  return query.toString();
}

/** uPlot's columns for the merges per hour: hour starts in seconds, and counts. */
export function mergedSeries(statistics: QueueStatisticsJson): [number[], number[]] {
  return [
    statistics.merged_per_hour.map((hour) => Date.parse(hour.hour) / 1000),
    statistics.merged_per_hour.map((hour) => hour.merged),
  ];
}

/** A duration as a person reads it: "45 s", "12 min", "3.5 h", "2.1 days"; "—" when unknown. */
export function durationInWords(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

/** CI runs per merged pull request with two decimals; "—" when nothing merged. */
export function runsPerMergeInWords(value: number | null): string {
  return value === null ? '—' : value.toFixed(2);
}

export const BATCH_OUTCOME_WORDS: Readonly<Record<string, string>> = {
  passed: 'Checks passed',
  covered: 'Covered by a later passing batch',
  failed: 'Checks failed',
  bisected: 'Split to find the failing change',
  cancelled: 'Cancelled before its checks ended',
};

/** The batch outcomes as table rows, in the answer's order, with words for each. */
export function batchOutcomeRows(
  statistics: QueueStatisticsJson,
): { outcome: string; words: string; count: number }[] {
  return statistics.batch_outcomes.map((entry) => ({
    outcome: entry.outcome,
    words: BATCH_OUTCOME_WORDS[entry.outcome] ?? entry.outcome,
    count: entry.count,
  }));
}

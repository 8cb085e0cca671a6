import type { QueueStatistics } from './queue-statistics';

/** GET …/merge-queue/statistics as JSON: times as RFC 3339, durations in seconds. */
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

const iso = (ms: number): string => new Date(ms).toISOString();

export function queueStatisticsJson(statistics: QueueStatistics, branch: string | null): QueueStatisticsJson {
  return {
    branch,
    since: iso(statistics.window.since),
    until: iso(statistics.window.until),
    merged: statistics.merged,
    merged_per_hour: statistics.mergedPerHour.map((hour) => ({
      hour: iso(hour.hourStart),
      merged: hour.merged,
    })),
    time_to_merge_seconds: statistics.timeToMergeSeconds,
    ci_runs: statistics.ciRuns,
    ci_runs_per_merged_pull_request: statistics.ciRunsPerMergedPullRequest,
    dequeue_reasons: statistics.dequeueReasons,
    batch_outcomes: statistics.batchOutcomes,
  };
}

const counts = (key: string) => ({
  type: 'array',
  items: {
    type: 'object',
    required: [key, 'count'],
    properties: { [key]: { type: 'string' }, count: { type: 'integer' } },
  },
});

/** The answer's schema for the OpenAPI document. */
export const QUEUE_STATISTICS_SCHEMA = {
  type: 'object',
  required: [
    'branch',
    'since',
    'until',
    'merged',
    'merged_per_hour',
    'time_to_merge_seconds',
    'ci_runs',
    'ci_runs_per_merged_pull_request',
    'dequeue_reasons',
    'batch_outcomes',
  ],
  properties: {
    branch: { type: 'string', nullable: true, description: 'null: every base branch of the repository' },
    since: { type: 'string', format: 'date-time' },
    until: { type: 'string', format: 'date-time' },
    merged: { type: 'integer' },
    merged_per_hour: {
      type: 'array',
      description: 'One entry per hour of the window, from the hour that holds since',
      items: {
        type: 'object',
        required: ['hour', 'merged'],
        properties: { hour: { type: 'string', format: 'date-time' }, merged: { type: 'integer' } },
      },
    },
    time_to_merge_seconds: {
      type: 'object',
      description: 'From entering the queue to merged, nearest-rank percentiles; null when nothing merged',
      required: ['p50', 'p95'],
      properties: { p50: { type: 'number', nullable: true }, p95: { type: 'number', nullable: true } },
    },
    ci_runs: { type: 'integer', description: 'Checks started (draft or in place, retries included)' },
    ci_runs_per_merged_pull_request: { type: 'number', nullable: true },
    dequeue_reasons: {
      ...counts('reason'),
      description: 'Pull requests that left without merging, by dequeue reason code',
    },
    batch_outcomes: {
      ...counts('outcome'),
      description: 'Batches by outcome: passed, covered (by a later batch), failed, bisected, cancelled',
    },
  },
};

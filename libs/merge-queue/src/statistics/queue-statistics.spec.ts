import type { MergeQueueEvent } from '../domain/events';
import { queueFactOf, type QueueFact } from './queue-facts';
import { HOUR_MS, percentile, queueStatistics } from './queue-statistics';

const T0 = Date.parse('2026-11-20T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const where = (at: number) => ({
  repository: 'acme/widgets',
  baseRef: 'main',
  trigger: 'merge queue internal',
  occurredAt: iso(at),
});
const inQueue = { queueName: 'default', partitionName: '__default__' };

const merged = (pullRequest: number, queuedAt: number, at: number) =>
  ({
    type: 'merge_queue.pull_request_merged',
    data: {
      ...where(at),
      pullRequest,
      queueName: 'default',
      partitionNames: ['__default__'],
      queuedAt: iso(queuedAt),
      priorityRuleName: null,
      sessionId: `s${pullRequest}`,
    },
  }) as MergeQueueEvent;

const left = (pullRequest: number, at: number, code: string | null, wasMerged = false) =>
  ({
    type: 'merge_queue.pull_request_left',
    data: { ...where(at), ...inQueue, pullRequest, merged: wasMerged, dequeueCode: code },
  }) as unknown as MergeQueueEvent;

const checksStarted = (at: number) =>
  ({ type: 'merge_queue.checks_started', data: { ...where(at), ...inQueue } }) as unknown as MergeQueueEvent;

const batch = (type: string, at: number, extra: Record<string, unknown> = {}) =>
  ({ type, data: { ...where(at), trainCarId: 'car', ...extra } }) as unknown as MergeQueueEvent;

const factsOf = (events: MergeQueueEvent[]): QueueFact[] =>
  events.map(queueFactOf).filter((fact): fact is QueueFact => fact !== null);

describe('queue statistics from merge-queue events', () => {
  const events = [
    checksStarted(T0 + 60_000),
    batch('merge_queue.batch_passed', T0 + 10 * 60_000, { covered: false }),
    merged(1, T0, T0 + 10 * 60_000),
    left(1, T0 + 10 * 60_000, 'PR_MERGED', true),
    checksStarted(T0 + 11 * 60_000),
    checksStarted(T0 + 12 * 60_000),
    batch('merge_queue.batch_failed', T0 + 40 * 60_000),
    batch('merge_queue.batch_bisection_started', T0 + 40 * 60_000),
    batch('merge_queue.batch_passed', T0 + 70 * 60_000, { covered: true }),
    merged(2, T0 + 5 * 60_000, T0 + 65 * 60_000),
    merged(3, T0 + 6 * 60_000, T0 + 126 * 60_000),
    left(4, T0 + 70 * 60_000, 'CHECKS_FAILED'),
    left(5, T0 + 71 * 60_000, 'CHECKS_FAILED'),
    left(6, T0 + 72 * 60_000, 'PR_MANUALLY_DEQUEUED'),
    left(7, T0 + 73 * 60_000, null),
    batch('merge_queue.batch_dissolved', T0 + 80 * 60_000, { returnedPullRequests: [8] }),
    {
      type: 'merge_queue.queue_size_changed',
      data: { ...where(T0), ...inQueue, size: 1 },
    } as MergeQueueEvent,
  ];

  const statistics = queueStatistics(factsOf(events), { since: T0, until: T0 + 3 * HOUR_MS });

  it('counts the merges of each hour of the window, from the hour that holds its start', () => {
    expect(statistics.merged).toBe(3);
    expect(statistics.mergedPerHour).toEqual([
      { hourStart: T0, merged: 1 },
      { hourStart: T0 + HOUR_MS, merged: 1 },
      { hourStart: T0 + 2 * HOUR_MS, merged: 1 },
    ]);
  });

  it('times each merge from entering the queue: p50 and p95 by nearest rank', () => {
    // 10, 60 and 120 minutes.
    expect(statistics.timeToMergeSeconds).toEqual({ p50: 3600, p95: 7200 });
  });

  it('divides the checks started by the pull requests merged', () => {
    expect(statistics.ciRuns).toBe(3);
    expect(statistics.ciRunsPerMergedPullRequest).toBe(1);
  });

  it('counts the pull requests that left without merging by reason, in the kernel list order; none named is NONE', () => {
    expect(statistics.dequeueReasons).toEqual([
      { reason: 'NONE', count: 1 },
      { reason: 'CHECKS_FAILED', count: 2 },
      { reason: 'PR_MANUALLY_DEQUEUED', count: 1 },
    ]);
  });

  it('counts every batch outcome, zero included', () => {
    expect(statistics.batchOutcomes).toEqual([
      { outcome: 'passed', count: 1 },
      { outcome: 'covered', count: 1 },
      { outcome: 'failed', count: 1 },
      { outcome: 'bisected', count: 1 },
      { outcome: 'cancelled', count: 1 },
    ]);
  });

  it('leaves out what happened before the window or at its end', () => {
    const later = queueStatistics(factsOf(events), { since: T0 + 65 * 60_000, until: T0 + 126 * 60_000 });
    expect(later.merged).toBe(1);
    expect(later.mergedPerHour).toEqual([
      { hourStart: T0 + HOUR_MS, merged: 1 },
      { hourStart: T0 + 2 * HOUR_MS, merged: 0 },
    ]);
    expect(later.ciRuns).toBe(0);
    expect(later.ciRunsPerMergedPullRequest).toBe(0);
    expect(later.batchOutcomes.find((entry) => entry.outcome === 'failed')?.count).toBe(0);
  });

  it('has no time to merge and no runs per merge when nothing merged', () => {
    const quiet = queueStatistics(factsOf([checksStarted(T0)]), { since: T0, until: T0 + 1 });
    expect(quiet).toMatchObject({
      merged: 0,
      mergedPerHour: [{ hourStart: T0, merged: 0 }],
      timeToMergeSeconds: { p50: null, p95: null },
      ciRuns: 1,
      ciRunsPerMergedPullRequest: null,
      dequeueReasons: [],
    });
  });
});

describe('percentile', () => {
  it('is the nearest-rank value', () => {
    const values = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(percentile(values, 0.5)).toBe(10);
    expect(percentile(values, 0.95)).toBe(19);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });
});

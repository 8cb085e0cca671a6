import { policyWith } from '../testing/queue-commands';
import { simulate } from './simulate';
import type { Workload } from './workload';

/** Mergify's published worked examples (performance-anchors §1.3, "Mergify parity checks"). */
const listed = (count: number, broken: number[] = []): Workload => ({
  arrivals: {
    kind: 'listed',
    pullRequests: Array.from({ length: count }, (_, i) => ({ atMinutes: 0, broken: broken.includes(i + 1) })),
  },
  ci: { minutes: 10, spread: 0, shape: 'uniform' },
  failureRate: 0,
  flakeRate: 0,
  scopes: null,
  hours: 2,
  drainHours: 4,
  seed: 1,
});

const mergedAtMinutes = (result: ReturnType<typeof simulate>) =>
  result.events.flatMap((e) =>
    e.type === 'merge_queue.pull_request_merged'
      ? [[e.data.pullRequest, (Date.parse(e.data.occurredAt) - 0) / 60_000] as const]
      : [],
  );

describe('Mergify parity', () => {
  it('batch_size 3 with max_parallel_checks 2 and a 10-minute pipeline merges the first 6 of 7 at t = 10 min', () => {
    const result = simulate(
      policyWith({ maxParallelChecks: 2 }, { batchSize: 3, batchMaxWaitTime: 30 }),
      listed(7),
      {
        keepEvents: true,
      },
    );
    const merges = mergedAtMinutes(result);
    expect(merges.slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6].map((pr) => [pr, 10]));
    expect(merges[6]).toEqual([7, 20]);
  });

  it('a failing batch of 6 with max_parallel_checks 3 checks [1–2], [1–4], [1–5] and never [1–6] again', () => {
    const result = simulate(
      policyWith({ maxParallelChecks: 3 }, { batchSize: 6, batchMaxWaitTime: 30 }),
      listed(6, [6]),
      { keepEvents: true },
    );
    const checked = result.events.flatMap((e) =>
      e.type === 'merge_queue.checks_started' ? [e.data.pullRequests.map((p) => p.number)] : [],
    );
    expect(checked).toEqual([[1, 2, 3, 4, 5, 6], [1, 2], [3, 4], [5]]);
    expect(result.ciRuns).toBe(4);
    expect(mergedAtMinutes(result).map(([pr]) => pr)).toEqual([1, 2, 3, 4, 5]);
    expect(result.dequeued).toEqual({ CHECKS_FAILED: 1 });
  });
});

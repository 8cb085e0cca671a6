import type { MergeQueueEvent } from '../domain/events';
import { policyWith } from '../testing/queue-commands';
import { simulate } from './simulate';
import type { ListedArrival, Workload } from './workload';

const listed = (pullRequests: ListedArrival[]): Workload => ({
  arrivals: { kind: 'listed', pullRequests },
  ci: { minutes: 10, spread: 0, shape: 'uniform' },
  failureRate: 0,
  flakeRate: 0,
  scopes: null,
  hours: 2,
  drainHours: 4,
  seed: 1,
});

const left = (events: MergeQueueEvent[]) =>
  events.flatMap((e) =>
    e.type === 'merge_queue.pull_request_left' ? [[e.data.pullRequest, e.data.dequeueCode] as const] : [],
  );

/** The sandbox CI's semantic conflicts in the queue simulator: pairs that pass alone and fail together. */
describe('queue simulation: semantic conflicts', () => {
  it('a batch holding both halves of a pair fails, and bisection drops the half that came second', () => {
    const result = simulate(
      policyWith({ maxParallelChecks: 1 }, { batchSize: 4, batchMaxWaitTime: 30 }),
      listed([
        { atMinutes: 0, provides: ['money-in-cents'] },
        { atMinutes: 0 },
        { atMinutes: 0, conflictsWith: ['money-in-cents'] },
        { atMinutes: 0 },
      ]),
      { keepEvents: true },
    );
    const checked = result.events.flatMap((e) =>
      e.type === 'merge_queue.checks_started' ? [e.data.pullRequests.map((p) => p.number)] : [],
    );
    // [1–4] fails; the split [1–2] passes and merges; [3] on top of it fails: the culprit. #4, sent
    // back when the split behind it was torn down, passes on its own.
    expect(checked).toEqual([[1, 2, 3, 4], [1, 2], [3], [4]]);
    expect(left(result.events)).toEqual([
      [1, 'PR_MERGED'],
      [2, 'PR_MERGED'],
      [3, 'CHECKS_FAILED'],
      [4, 'PR_MERGED'],
    ]);
    expect(result).toMatchObject({ brokenMain: 0, pairRejected: 1, goodRejected: 0, badRejected: 0 });
  });

  it('isolated mode checks each pull request on main alone: both halves merge, and main is counted broken', () => {
    const result = simulate(
      policyWith({ mode: 'isolated', maxParallelChecks: 2 }),
      listed([
        { atMinutes: 0, provides: ['schema-v2'] },
        { atMinutes: 0, conflictsWith: ['schema-v2'] },
      ]),
    );
    expect(result).toMatchObject({ merged: 2, brokenMain: 1 });
  });

  it.each([
    ['serial, batches of 4', policyWith({ maxParallelChecks: 3 }, { batchSize: 4 }), null],
    ['parallel mode over 3 scopes', policyWith({ mode: 'parallel', maxParallelChecks: 4 }), { count: 3 }],
  ])(
    '%s: drawn pairs fail in batches, never both reach main, and every pair costs at most one pull request',
    (_name, policy, scopes) => {
      const result = simulate(policy, {
        arrivals: { kind: 'poisson', perHour: 12 },
        ci: { minutes: 20, spread: 0.2, shape: 'uniform' },
        failureRate: 0.02,
        flakeRate: 0,
        semanticConflictRate: 0.1,
        scopes,
        hours: 24,
        drainHours: 24,
        seed: 11,
      });
      expect(result.semanticPairs).toBeGreaterThan(5);
      expect(result.pairRejected).toBeGreaterThan(0);
      expect(result.pairRejected).toBeLessThanOrEqual(result.semanticPairs);
      expect(result.brokenMain).toBe(0);
      expect(result.goodRejected).toBe(0);
      expect(result.stillQueued).toBe(0);
    },
  );
});

describe('queue simulation: CI runs', () => {
  it('a draft started and torn down at the same instant is no run', () => {
    // Two checks at once, 10-minute CI: at t = 10 #1 passes and merges, which frees a slot for #3
    // on top of #2; #2's failure, reported at that same instant, tears #3's fresh draft down.
    const result = simulate(
      policyWith({ maxParallelChecks: 2 }),
      listed([{ atMinutes: 0 }, { atMinutes: 0, broken: true }, { atMinutes: 0 }]),
      { keepEvents: true },
    );
    const started = result.events.filter((e) => e.type === 'merge_queue.checks_started').length;
    expect(started).toBe(4);
    expect(result).toMatchObject({ ciRuns: 3, instantTeardowns: 1, merged: 2 });
  });
});

import fc from 'fast-check';
import { simulate } from '../simulation/simulate';
import type { ListedArrival, Workload } from '../simulation/workload';
import type { MergeQueueEvent } from './events';
import { defaultQueuePolicy, PRIORITY, type QueueMode, type QueuePolicy } from './policy';

/**
 * Properties of the whole engine (decider + planner) driven by the simulation over random
 * arrivals, priorities, scopes, broken changes and flaky CI, with fixed seeds.
 */
const SEED = 20261124;

interface Scenario {
  mode: QueueMode;
  maxParallelChecks: number;
  batchSize: number;
  retries: number;
  skip: boolean;
  cap: number | null;
  arrivals: ListedArrival[];
  flakeRate: number;
  ciSeed: number;
}

const arrival = (scoped: boolean): fc.Arbitrary<ListedArrival> =>
  fc.record({
    atMinutes: fc.integer({ min: 0, max: 240 }),
    // About one change in five is broken.
    broken: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    priority: fc.constantFrom(PRIORITY.low, PRIORITY.medium, PRIORITY.medium, PRIORITY.high),
    allowCheckInterruption: fc.boolean(),
    scopes: scoped ? fc.subarray(['api', 'web', 'docs'], { minLength: 1, maxLength: 2 }) : fc.constant([]),
  });

const scenario = (modes: QueueMode[]): fc.Arbitrary<Scenario> =>
  fc.constantFrom(...modes).chain((mode) =>
    fc.record({
      mode: fc.constant(mode),
      maxParallelChecks: fc.integer({ min: 1, max: 4 }),
      batchSize: fc.integer({ min: 1, max: 4 }),
      retries: fc.integer({ min: 0, max: 1 }),
      skip: mode === 'isolated' ? fc.constant(false) : fc.boolean(),
      cap: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
      arrivals: fc.array(arrival(mode !== 'serial'), { minLength: 1, maxLength: 14 }),
      flakeRate: fc.constantFrom(0, 0, 0.1),
      ciSeed: fc.integer({ min: 1, max: 1_000_000 }),
    }),
  );

const policyOf = (s: Scenario): QueuePolicy => {
  const policy = defaultQueuePolicy();
  policy.mergeQueue = {
    ...policy.mergeQueue,
    mode: s.mode,
    maxParallelChecks: s.maxParallelChecks,
    skipIntermediateResults: s.skip,
  };
  policy.rules = [
    {
      ...policy.rules[0]!,
      batchSize: s.batchSize,
      batchMaxWaitTime: 60,
      maxChecksRetries: s.retries,
      batchMaxFailureResolutionAttempts: s.cap,
      checksTimeout: null,
    },
  ];
  return policy;
};

const workloadOf = (s: Scenario): Workload => ({
  arrivals: { kind: 'listed', pullRequests: s.arrivals },
  ci: { minutes: 30, spread: 0.2, shape: 'uniform' },
  failureRate: 0,
  flakeRate: s.flakeRate,
  scopes: null,
  hours: 5,
  drainHours: 400,
  seed: s.ciSeed,
});

const simulateScenario = (s: Scenario) => simulate(policyOf(s), workloadOf(s), { keepEvents: true });

const leaveEvents = (events: MergeQueueEvent[]) =>
  events.flatMap((e) => (e.type === 'merge_queue.pull_request_left' ? [e.data] : []));

describe('merge queue properties (fixed seeds)', () => {
  it('main never receives a broken change, in any mode', () => {
    fc.assert(
      fc.property(scenario(['serial', 'parallel', 'isolated']), (s) => {
        expect(simulateScenario(s).brokenMain).toBe(0);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('serial: every merge leaves main as a combination a passing run checked (a later batch under skip_intermediate_results)', () => {
    fc.assert(
      fc.property(scenario(['serial']), (s) => {
        expect(simulateScenario(s).uncheckedMerges).toBe(0);
      }),
      { seed: SEED + 1, numRuns: 60 },
    );
  });

  it('every queued pull request ends merged or dequeued with a reason, exactly once', () => {
    fc.assert(
      fc.property(scenario(['serial', 'parallel', 'isolated']), (s) => {
        const result = simulateScenario(s);
        expect(result.stillQueued).toBe(0);
        const left = leaveEvents(result.events);
        expect(left.map((l) => l.pullRequest).sort((a, b) => a - b)).toEqual(s.arrivals.map((_, i) => i + 1));
        for (const l of left) {
          expect(l.dequeueCode).not.toBeNull();
          expect(l.reason.length).toBeGreaterThan(0);
          expect(l.merged).toBe(
            l.dequeueCode === 'PR_MERGED' || l.dequeueCode === 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED',
          );
        }
      }),
      { seed: SEED + 2, numRuns: 60 },
    );
  });

  it('serial: a higher-priority pull request queued before a lower one was last batched merges first', () => {
    fc.assert(
      fc.property(scenario(['serial']), (s) => {
        const { events } = simulateScenario(s);
        const priority = new Map(s.arrivals.map((a, i) => [i + 1, a.priority ?? PRIORITY.medium]));
        const enteredAt = new Map<number, number>();
        const lastComposedAt = new Map<number, number>();
        const mergedAt = new Map<number, number>();
        events.forEach((e, position) => {
          if (e.type === 'merge_queue.pull_request_entered') enteredAt.set(e.data.pullRequest, position);
          // The splits of a bisection re-check a batch already formed; they are no new choice.
          if (e.type === 'merge_queue.batch_composed' && e.data.bisection === null)
            for (const pr of e.data.pullRequests) lastComposedAt.set(pr.number, position);
          if (e.type === 'merge_queue.pull_request_merged') mergedAt.set(e.data.pullRequest, position);
        });
        for (const [a, aMerged] of mergedAt)
          for (const [b, bMerged] of mergedAt) {
            if (priority.get(a)! <= priority.get(b)!) continue;
            if (enteredAt.get(a)! > lastComposedAt.get(b)!) continue;
            expect([a, b, aMerged < bMerged]).toEqual([a, b, true]);
          }
      }),
      { seed: SEED + 3, numRuns: 60 },
    );
  });

  it('the same inputs give the same events', () => {
    fc.assert(
      fc.property(scenario(['serial', 'parallel', 'isolated']), (s) => {
        expect(simulateScenario(s).events).toEqual(simulateScenario(s).events);
      }),
      { seed: SEED + 4, numRuns: 15 },
    );
  });
});

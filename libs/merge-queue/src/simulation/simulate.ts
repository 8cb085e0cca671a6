import {
  combineCiMarkers,
  NO_CI_MARKERS,
  runSandboxCi,
  type SandboxCiMarkers,
} from '@switchyard/code-host/sandbox/ci';
import type { MergeQueueCommand } from '../domain/commands';
import { mergeQueueDecider } from '../domain/decider';
import type { DequeueCode, MergeQueueEvent } from '../domain/events';
import { nextWakeAt, pendingEffects, type QueueEffect } from '../domain/planner';
import { PRIORITY, type QueuePolicy } from '../domain/policy';
import type { QueueState } from '../domain/state';
import { EventHeap } from './event-heap';
import { exponentialGapMs, normal, Random } from './random';
import type { ListedArrival, Workload } from './workload';

/**
 * A discrete-event simulation of one queue: the real decider and planner, the sandbox CI model,
 * a virtual clock. Nothing waits on the wall clock; the same policy, workload and seed give the
 * same run.
 */
export interface SimulationResult {
  arrived: number;
  /** Arrivals that were really broken. */
  brokenArrived: number;
  merged: number;
  mergedPerHour: number;
  timeToMergeMinutes: { p50: number | null; p95: number | null; max: number | null };
  ciRuns: number;
  ciRunsPerMerged: number | null;
  /** Merges that put a broken change on main. Must be 0. */
  brokenMain: number;
  /**
   * Merges after which main is not exactly a combination a passing run checked (its base plus its
   * pull requests up to the merged one; under skip_intermediate_results, a later batch's run).
   */
  uncheckedMerges: number;
  goodRejected: number;
  badRejected: number;
  dequeued: Partial<Record<DequeueCode, number>>;
  /** Queue length sampled at regular intervals. */
  queueLength: Array<{ hour: number; length: number }>;
  stillQueued: number;
  events: MergeQueueEvent[];
  simulatedHours: number;
}

export interface SimulationOptions {
  /** Keep every event (tests); off for benchmarks. */
  keepEvents?: boolean;
  /** How many queue-length samples to take over the run. */
  samples?: number;
}

type Timed =
  | { kind: 'arrival'; pullRequest: ListedArrival & { number: number } }
  | { kind: 'command'; command: MergeQueueCommand }
  | { kind: 'tick' };

const REPOSITORY = 'simulated/repository';
const BASE = 'main';
const FIRST_DRAFT = 1_000_000;

interface CheckRun {
  /** Main's content when the run's branch was created, and the pull requests merged onto it. */
  base: Set<number>;
  checked: number[];
}

export function simulate(
  policy: QueuePolicy,
  workload: Workload,
  options: SimulationOptions = {},
): SimulationResult {
  const random = new Random(workload.seed);
  const ciRandom = new Random(workload.seed ^ 0x5bd1e995);
  const heap = new EventHeap<Timed>();
  const horizon = workload.hours * 3_600_000;
  const end = horizon + (workload.drainHours ?? 0) * 3_600_000;
  const queueName = policy.rules[0]!.name;

  const broken = new Set<number>();
  const enteredAt = new Map<number, number>();
  const mergeMinutes: number[] = [];
  const main = new Set<number>();
  const runs = new Map<number, CheckRun>();
  const passedRuns: CheckRun[] = [];
  const events: MergeQueueEvent[] = [];
  const dequeued: Partial<Record<DequeueCode, number>> = {};
  let state: QueueState = mergeQueueDecider.initialState();
  let now = 0;
  let nextDraft = FIRST_DRAFT;
  let ciRuns = 0;
  let merged = 0;
  let brokenMain = 0;
  let uncheckedMerges = 0;
  let goodRejected = 0;
  let badRejected = 0;
  let arrived = 0;
  let scheduledTick: number | null = null;

  scheduleArrivals(workload, random, heap, horizon);

  const apply = (command: MergeQueueCommand): void => {
    const produced = mergeQueueDecider.decide(command, state);
    for (const event of produced) {
      state = mergeQueueDecider.evolve(state, event);
      if (options.keepEvents) events.push(event);
      if (event.type === 'merge_queue.pull_request_left' && !event.data.merged && event.data.dequeueCode) {
        const code = event.data.dequeueCode;
        dequeued[code] = (dequeued[code] ?? 0) + 1;
        if (broken.has(event.data.pullRequest)) badRejected++;
        else goodRejected++;
      }
    }
  };

  const command = <K extends MergeQueueCommand['kind']>(
    kind: K,
    fields: Omit<Extract<MergeQueueCommand, { kind: K }>, 'kind' | 'repository' | 'baseRef' | 'at'>,
  ) => ({ kind, repository: REPOSITORY, baseRef: BASE, at: now, ...fields }) as unknown as MergeQueueCommand;

  const startCi = (batchId: string, attempt: number, checkPullRequest: number, checked: number[]) => {
    ciRuns++;
    runs.set(checkPullRequest, { base: new Set(main), checked });
    apply(
      command('draft_created', { batchId, attempt, checkPullRequest, headSha: `head-${checkPullRequest}` }),
    );
    const seconds = ciSeconds(workload, ciRandom);
    const markers: SandboxCiMarkers[] = [
      { fails: false, flakyRates: workload.flakeRate > 0 ? [workload.flakeRate] : [], durations: [seconds] },
      ...checked.map((n) => (broken.has(n) ? { ...NO_CI_MARKERS, fails: true } : NO_CI_MARKERS)),
    ];
    const outcome = runSandboxCi({
      markers: combineCiMarkers(markers),
      seed: `${workload.seed}#${checkPullRequest}`,
      run: 1,
      defaultSeconds: seconds,
    });
    heap.push(now + outcome.seconds * 1000, {
      kind: 'command',
      command: command('checks_reported', {
        batchId,
        attempt,
        conclusion: outcome.conclusion,
        unsuccessfulChecks:
          outcome.conclusion === 'failure'
            ? [{ name: 'ci', description: 'sandbox CI failed', url: null, state: 'failure', avatarUrl: null }]
            : [],
      }),
    });
  };

  const mergeOne = (pullRequest: number) => {
    main.add(pullRequest);
    merged++;
    if (broken.has(pullRequest)) brokenMain++;
    // Main must now be exactly what a passing run checked, up to this pull request (the pull
    // requests of a batch merge one by one, in the order the run merged them onto its branch).
    const covered = passedRuns.some((run) => {
      const index = run.checked.indexOf(pullRequest);
      if (index < 0) return false;
      const expected = new Set([...run.base, ...run.checked.slice(0, index + 1)]);
      return expected.size === main.size && [...main].every((n) => expected.has(n));
    });
    if (!covered) uncheckedMerges++;
    const entered = enteredAt.get(pullRequest);
    if (entered !== undefined && now <= horizon) mergeMinutes.push((now - entered) / 60_000);
    apply(command('merged', { pullRequest, mergeCommitSha: `merge-${pullRequest}` }));
  };

  const perform = (effect: QueueEffect): void => {
    switch (effect.kind) {
      case 'create_draft':
        return startCi(effect.batchId, effect.attempt, nextDraft++, effect.pullRequests);
      case 'update_in_place':
        return startCi(effect.batchId, effect.attempt, effect.pullRequest, [effect.pullRequest]);
      case 'merge':
        return mergeOne(effect.pullRequest);
      case 'merge_batch':
        for (const pullRequest of effect.pullRequests) mergeOne(pullRequest);
        return;
      case 'close_draft':
        return apply(command('draft_closed', { checkPullRequest: effect.checkPullRequest }));
    }
  };

  /** Carries out what the planner asks until nothing is left to do at this instant. */
  const drainEffects = (): void => {
    for (let guard = 0; guard < 10_000; guard++) {
      const effect = pendingEffects(state, now)[0];
      if (!effect) break;
      perform(effect);
    }
    const wake = nextWakeAt(state, now);
    if (wake !== null && (scheduledTick === null || wake < scheduledTick || scheduledTick <= now)) {
      scheduledTick = Math.max(wake, now + 1);
      heap.push(scheduledTick, { kind: 'tick' });
    }
  };

  const sampleEvery = end / (options.samples ?? 48);
  const queueLength: SimulationResult['queueLength'] = [];
  let nextSample = 0;

  apply(command('apply_configuration', { policy }));
  while (heap.size > 0) {
    const at = heap.peekTime()!;
    if (at > end) break;
    while (nextSample <= at) {
      queueLength.push({ hour: nextSample / 3_600_000, length: Object.keys(state.pullRequests).length });
      nextSample += sampleEvery;
    }
    const { item } = heap.pop()!;
    now = at;
    if (item.kind === 'arrival') {
      const pr = item.pullRequest;
      arrived++;
      if (pr.broken) broken.add(pr.number);
      enteredAt.set(pr.number, now);
      apply(
        command('enqueue', {
          pullRequest: pr.number,
          queueName,
          priority: pr.priority ?? PRIORITY.medium,
          priorityRuleName: pr.priority === PRIORITY.high ? 'high' : null,
          allowCheckInterruption: pr.allowCheckInterruption ?? false,
          headSha: `pr-${pr.number}`,
          scopes: pr.scopes ?? [],
          allScopes: pr.allScopes ?? false,
          dependsOn: pr.dependsOn ?? [],
          trigger: 'Rule: simulate',
        }),
      );
    } else if (item.kind === 'command') {
      const reported = item.command;
      if (reported.kind === 'checks_reported') {
        const batch = state.batches.find((b) => b.id === reported.batchId);
        const run = batch?.checkPullRequest === null ? undefined : runs.get(batch?.checkPullRequest ?? -1);
        if (
          run &&
          reported.conclusion === 'success' &&
          batch?.attempt === reported.attempt &&
          batch.phase === 'running'
        )
          passedRuns.push(run);
      }
      apply({ ...item.command, at: now });
    } else {
      if (scheduledTick === now) scheduledTick = null;
      apply(command('tick', {}));
    }
    drainEffects();
    if (now > horizon && Object.keys(state.pullRequests).length === 0) break;
  }

  const sorted = [...mergeMinutes].sort((a, b) => a - b);
  const quantile = (q: number) =>
    sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mergedInHorizon = mergeMinutes.length;
  return {
    arrived,
    brokenArrived: broken.size,
    merged,
    mergedPerHour: mergedInHorizon / workload.hours,
    timeToMergeMinutes: { p50: quantile(0.5), p95: quantile(0.95), max: sorted.at(-1) ?? null },
    ciRuns,
    ciRunsPerMerged: merged === 0 ? null : ciRuns / merged,
    brokenMain,
    uncheckedMerges,
    goodRejected,
    badRejected,
    dequeued,
    queueLength,
    stillQueued: Object.keys(state.pullRequests).length,
    events,
    simulatedHours: now / 3_600_000,
  };
}

function ciSeconds(workload: Workload, random: Random): number {
  const { minutes, spread, shape } = workload.ci;
  const factor =
    shape === 'uniform' ? 1 + spread * (2 * random.next() - 1) : Math.exp(spread * normal(random));
  return Math.max(1, Math.round(minutes * 60 * factor));
}

function scheduleArrivals(workload: Workload, random: Random, heap: EventHeap<Timed>, horizon: number): void {
  const { arrivals } = workload;
  const scopesFor = (): string[] => {
    if (!workload.scopes) return [];
    const count = workload.scopes.count;
    const first = Math.floor(random.next() * count);
    if (count < 2 || random.next() >= 0.2) return [`scope-${first}`];
    const second = (first + 1 + Math.floor(random.next() * (count - 1))) % count;
    return [`scope-${first}`, `scope-${second}`];
  };
  const generated = (number: number): ListedArrival & { number: number } => ({
    number,
    atMinutes: 0,
    broken: random.chance(workload.failureRate),
    priority: random.chance(workload.highPriorityShare ?? 0) ? PRIORITY.high : PRIORITY.medium,
    scopes: scopesFor(),
  });
  if (arrivals.kind === 'listed') {
    arrivals.pullRequests.forEach((pr, index) =>
      heap.push(pr.atMinutes * 60_000, { kind: 'arrival', pullRequest: { ...pr, number: index + 1 } }),
    );
    return;
  }
  if (arrivals.kind === 'burst') {
    for (let number = 1; number <= arrivals.count; number++)
      heap.push(0, { kind: 'arrival', pullRequest: generated(number) });
    return;
  }
  let at = 0;
  for (let number = 1; ; number++) {
    at += exponentialGapMs(random, arrivals.perHour);
    if (at > horizon) break;
    heap.push(at, { kind: 'arrival', pullRequest: generated(number) });
  }
}

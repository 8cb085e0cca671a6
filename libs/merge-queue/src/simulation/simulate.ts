import {
  combineCiMarkers,
  NO_CI_MARKERS,
  runSandboxCi,
  semanticConflictsOf,
  type SandboxCiMarkers,
} from '@switchyard/sandbox-forge/ci';
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
  /** Pairs of pull requests that conflict semantically (each passes alone, both together fail). */
  semanticPairs: number;
  merged: number;
  mergedPerHour: number;
  timeToMergeMinutes: { p50: number | null; p95: number | null; max: number | null };
  /** CI runs that ran: a draft started and torn down at the same instant is not one. */
  ciRuns: number;
  ciRunsPerMerged: number | null;
  /** Drafts whose checks started and ended at the same instant (not counted in ciRuns). */
  instantTeardowns: number;
  /** Merges that put a broken change, or the second half of a semantic-conflict pair, on main. Must be 0. */
  brokenMain: number;
  /**
   * Merges after which main is not exactly a combination a passing run checked (its base plus its
   * pull requests up to the merged one; under skip_intermediate_results, a later batch's run).
   */
  uncheckedMerges: number;
  /** Dequeued, neither broken nor half of a semantic-conflict pair. */
  goodRejected: number;
  /** Dequeued and broken. */
  badRejected: number;
  /** Dequeued halves of semantic-conflict pairs. */
  pairRejected: number;
  dequeued: Partial<Record<DequeueCode, number>>;
  /** Queue length sampled at regular intervals. */
  queueLength: Array<{ hour: number; length: number }>;
  stillQueued: number;
  events: MergeQueueEvent[];
  simulatedHours: number;
  /** When the queue had drained after the horizon (every pull request merged or dequeued), or null. */
  drainedAtHours: number | null;
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

/** A CI run under way: when it started (a draft torn down at that same instant never ran). */
interface OpenRun {
  startedAt: number;
}

/** Runs a simulation to its end at once (the CLI, benchmarks, tests). */
export function simulate(
  policy: QueuePolicy,
  workload: Workload,
  options: SimulationOptions = {},
): SimulationResult {
  const run = simulationInSlices(policy, workload, options);
  for (;;) {
    const step = run.next();
    if (step.done) return step.value;
  }
}

/** Simulated events handled between two pauses of `simulationInSlices`: some tens of milliseconds of CPU at most. */
const EVENTS_PER_SLICE = 20;

/**
 * The same simulation, pausing (`yield`) every few simulated events, so that a caller
 * sharing a thread with other work (the HTTP endpoint) can let it run between slices; the result is
 * the generator's return value, identical to `simulate`'s.
 */
export function* simulationInSlices(
  policy: QueuePolicy,
  workload: Workload,
  options: SimulationOptions = {},
): Generator<void, SimulationResult, void> {
  const random = new Random(workload.seed);
  const ciRandom = new Random(workload.seed ^ 0x5bd1e995);
  const heap = new EventHeap<Timed>();
  const horizon = workload.hours * 3_600_000;
  const end = horizon + (workload.drainHours ?? 0) * 3_600_000;
  const queueName = policy.rules[0]!.name;

  const broken = new Set<number>();
  /** Each pull request's sandbox CI markers (a broken one fails; pairs provide and conflict). */
  const markersOf = new Map<number, SandboxCiMarkers>();
  /** Halves of semantic-conflict pairs. */
  const paired = new Set<number>();
  let semanticPairs = 0;
  /** The markers of main's tree: the merged pull requests' together. */
  let mainMarkers: SandboxCiMarkers = NO_CI_MARKERS;
  const openRuns = new Map<number, OpenRun>();
  let instantTeardowns = 0;
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
  let pairRejected = 0;
  let arrived = 0;
  let scheduledTick: number | null = null;
  let drainedAt: number | null = null;

  scheduleArrivals(workload, random, heap, horizon);

  const apply = (command: MergeQueueCommand): void => {
    const produced = mergeQueueDecider.decide(command, state);
    for (const event of produced) {
      state = mergeQueueDecider.evolve(state, event);
      if (options.keepEvents) events.push(event);
      if (event.type === 'merge_queue.checks_ended') endRun(event.data.speculativeCheck.number);
      if (event.type === 'merge_queue.pull_request_left' && !event.data.merged && event.data.dequeueCode) {
        const code = event.data.dequeueCode;
        dequeued[code] = (dequeued[code] ?? 0) + 1;
        if (broken.has(event.data.pullRequest)) badRejected++;
        else if (paired.has(event.data.pullRequest)) pairRejected++;
        else goodRejected++;
      }
    }
  };

  const command = <K extends MergeQueueCommand['kind']>(
    kind: K,
    fields: Omit<Extract<MergeQueueCommand, { kind: K }>, 'kind' | 'repository' | 'baseRef' | 'at'>,
  ) => ({ kind, repository: REPOSITORY, baseRef: BASE, at: now, ...fields }) as unknown as MergeQueueCommand;

  /** A run counts once its checks end after some time has passed (a result, or a teardown). */
  function endRun(checkPullRequest: number): void {
    const run = openRuns.get(checkPullRequest);
    if (!run) return;
    openRuns.delete(checkPullRequest);
    if (now > run.startedAt) ciRuns++;
    else instantTeardowns++;
  }

  const startCi = (batchId: string, attempt: number, checkPullRequest: number, checked: number[]) => {
    runs.set(checkPullRequest, { base: new Set(main), checked });
    openRuns.set(checkPullRequest, { startedAt: now });
    apply(
      command('draft_created', { batchId, attempt, checkPullRequest, headSha: `head-${checkPullRequest}` }),
    );
    const seconds = ciSeconds(workload, ciRandom);
    // The run's tree: main, then the pull requests merged onto the branch, as the sandbox CI reads it.
    const markers: SandboxCiMarkers[] = [
      {
        ...NO_CI_MARKERS,
        flakyRates: workload.flakeRate > 0 ? [workload.flakeRate] : [],
        durations: [seconds],
      },
      mainMarkers,
      ...checked.map((n) => markersOf.get(n) ?? NO_CI_MARKERS),
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
    const before = semanticConflictsOf(mainMarkers).length;
    mainMarkers = combineCiMarkers([mainMarkers, markersOf.get(pullRequest) ?? NO_CI_MARKERS]);
    if (broken.has(pullRequest) || semanticConflictsOf(mainMarkers).length > before) brokenMain++;
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
      case 'delete_branch':
        return apply(command('draft_branch_deleted', { branch: effect.branch }));
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

  /**
   * With the workload's semantic-conflict rate, the newcomer conflicts with a pull request still
   * queued: the one provides a token the other conflicts with, and the newcomer shares one of its
   * scopes (a conflict between changes that declare disjoint scopes is the scopes' lie, not the
   * queue's miss). Drawn from the arrivals' generator, which has already scheduled every arrival.
   */
  function pairedOnArrival(pr: ListedArrival & { number: number }): ListedArrival & { number: number } {
    const rate = workload.semanticConflictRate ?? 0;
    if (rate <= 0 || !random.chance(rate)) return pr;
    const queued = Object.keys(state.pullRequests).map(Number);
    if (queued.length === 0) return pr;
    const partner = queued[Math.min(queued.length - 1, Math.floor(random.next() * queued.length))]!;
    const token = `pair-${partner}-${pr.number}`;
    semanticPairs++;
    paired.add(partner);
    markersOf.set(
      partner,
      combineCiMarkers([markersOf.get(partner) ?? NO_CI_MARKERS, { ...NO_CI_MARKERS, provides: [token] }]),
    );
    const partnerScopes = state.pullRequests[partner]?.scopes ?? [];
    const scopes =
      partnerScopes.length === 0 ? pr.scopes : [...new Set([...(pr.scopes ?? []), partnerScopes[0]!])];
    return {
      ...pr,
      ...(scopes ? { scopes } : {}),
      conflictsWith: [...(pr.conflictsWith ?? []), token],
    };
  }

  const sampleEvery = end / (options.samples ?? 48);
  const queueLength: SimulationResult['queueLength'] = [];
  let nextSample = 0;

  apply(command('apply_configuration', { policy }));
  for (let handled = 1; heap.size > 0; handled++) {
    if (handled % EVENTS_PER_SLICE === 0) yield;
    const at = heap.peekTime()!;
    if (at > end) break;
    while (nextSample <= at) {
      queueLength.push({ hour: nextSample / 3_600_000, length: Object.keys(state.pullRequests).length });
      nextSample += sampleEvery;
    }
    const { item } = heap.pop()!;
    now = at;
    if (item.kind === 'arrival') {
      const pr = pairedOnArrival(item.pullRequest);
      arrived++;
      if (pr.broken) broken.add(pr.number);
      markersOf.set(
        pr.number,
        combineCiMarkers([
          markersOf.get(pr.number) ?? NO_CI_MARKERS,
          {
            ...NO_CI_MARKERS,
            fails: pr.broken === true,
            provides: pr.provides ?? [],
            conflictsWith: pr.conflictsWith ?? [],
          },
        ]),
      );
      if ((pr.provides?.length ?? 0) > 0 || (pr.conflictsWith?.length ?? 0) > 0) paired.add(pr.number);
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
    if (now > horizon && Object.keys(state.pullRequests).length === 0) {
      drainedAt = now;
      break;
    }
  }

  // Runs still under way when the simulation stops count if they have run for some time.
  for (const checkPullRequest of [...openRuns.keys()]) endRun(checkPullRequest);
  const sorted = [...mergeMinutes].sort((a, b) => a - b);
  const quantile = (q: number) =>
    sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mergedInHorizon = mergeMinutes.length;
  return {
    arrived,
    brokenArrived: broken.size,
    semanticPairs,
    merged,
    // A workload with no horizon (a burst measured until it drains) has no rate over one.
    mergedPerHour: workload.hours > 0 ? mergedInHorizon / workload.hours : 0,
    timeToMergeMinutes: { p50: quantile(0.5), p95: quantile(0.95), max: sorted.at(-1) ?? null },
    ciRuns,
    ciRunsPerMerged: merged === 0 ? null : ciRuns / merged,
    instantTeardowns,
    brokenMain,
    uncheckedMerges,
    goodRejected,
    badRejected,
    pairRejected,
    dequeued,
    queueLength,
    stillQueued: Object.keys(state.pullRequests).length,
    events,
    simulatedHours: now / 3_600_000,
    drainedAtHours: drainedAt === null ? null : drainedAt / 3_600_000,
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

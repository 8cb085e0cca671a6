import { findCiMarkers, combineCiMarkers, semanticConflictsOf } from '@switchyard/sandbox-forge/ci';
import { staysOf, type QueueEvent, type Stay } from './queue-history';
import { ciMarker, expectationsOf, longestRunSeconds, type Scenario } from './scenario';

/** The numbers of the liveness bound of docs/queue-behaviour.md for one scenario. */
export interface Bounds {
  /** W: the longest `batch_max_wait_time`. */
  readonly waitSeconds: number;
  /** Δ: how often the queue timer looks. */
  readonly timerSeconds: number;
  /** b: the largest batch. */
  readonly batch: number;
  /** r: the most checks retries. */
  readonly retries: number;
  /** C': the longest run of CI (a stuck one ends at its timeout + Δ). */
  readonly runSeconds: number;
  readonly skipIntermediateResults: boolean;
  /** Code-host latency allowed per round of checks (drafts, merges, webhooks): not in the bound. */
  readonly slackSeconds: number;
}

export function boundsOf(scenario: Scenario, ciSeconds: number, slackSeconds: number): Bounds {
  const timerSeconds = 1;
  const queues = scenario.configuration.queues;
  return {
    waitSeconds: Math.max(...queues.map((q) => q.batchMaxWaitSeconds)),
    timerSeconds,
    batch: Math.max(...queues.map((q) => (typeof q.batchSize === 'number' ? q.batchSize : q.batchSize.max))),
    retries: Math.max(...queues.map((q) => q.maxChecksRetries)),
    runSeconds: longestRunSeconds(scenario, ciSeconds, timerSeconds),
    skipIntermediateResults: scenario.configuration.skipIntermediateResults,
    slackSeconds,
  };
}

/** Conclusions of the head batch before a pull request with `alongside` others queued leaves: (A + 1) · b · (⌈log₂ b⌉ + 1). */
export const roundsOf = (bounds: Bounds, alongside: number): number =>
  (alongside + 1) * bounds.batch * (Math.ceil(Math.log2(bounds.batch)) + 1);

/** B(A) of docs/queue-behaviour.md, plus the per-round slack for code-host latency, in ms. */
export function stayBoundMs(bounds: Bounds, alongside: number): number {
  const round = (bounds.retries + 1) * bounds.runSeconds * (bounds.skipIntermediateResults ? 2 : 1);
  const seconds =
    bounds.waitSeconds + bounds.timerSeconds + roundsOf(bounds, alongside) * (round + bounds.slackSeconds);
  return seconds * 1000;
}

/** Runs of checks a pull request may ride in during one stay: (r + 1) per round, plus one per disruption. */
export const checksBudget = (bounds: Bounds, stay: Stay): number =>
  roundsOf(bounds, stay.mostAlongside) * (bounds.retries + 1) + stay.disruptions;

export interface Window {
  readonly from: number;
  readonly to: number;
}

/** What the run left behind, read back over HTTP and from the queue's stream. */
export interface Observed {
  /** The pull-request number of each planned pull request (null if it was never opened). */
  readonly numbers: readonly (number | null)[];
  readonly events: readonly QueueEvent[];
  /** Whether the forge says each pull request merged. */
  readonly merged: readonly boolean[];
  /** The text on the base branch of every file any pull request or the setup wrote. */
  readonly baseBranchFiles: Readonly<Record<string, string | null>>;
  /** When the queue was held: pauses and freeze windows (wall clock, ms). */
  readonly held: readonly Window[];
  /** Pull requests still queued when the run gave up waiting. */
  readonly stillQueued: readonly number[];
}

const overlapMs = (windows: readonly Window[], from: number, to: number) =>
  windows.reduce((sum, w) => sum + Math.max(0, Math.min(w.to, to) - Math.max(w.from, from)), 0);

/** Dequeue codes after which a rule must not queue the same head again (docs/queue-behaviour.md). */
const HOLDS_RULES_BACK = new Set([
  'CHECKS_FAILED',
  'CHECKS_TIMEOUT',
  'CONFLICT_WITH_BASE_BRANCH',
  'CONFLICT_WITH_PULL_AHEAD',
  'BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS',
  'PR_UNEXPECTEDLY_FAILED_TO_MERGE',
  'DRAFT_PULL_REQUEST_CHANGED',
  'DRAFT_PULL_REQUEST_CREATION_FAILED',
  'BRANCH_UPDATE_FAILED',
  'UNPROCESSABLE_PULL_REQUEST',
  'INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS',
]);

/**
 * The soak's invariants over one finished run; each violation is one line. Safety: nothing broken
 * on the base branch, nothing merged twice. Outcomes: every good pull request merged, every bad one
 * dequeued, one of each conflict group. Liveness: every stay within B(A), no re-queue without a change,
 * checks runs within budget. (Agreement of status, log and comment is checked over HTTP by the driver.)
 */
export function checkInvariants(scenario: Scenario, observed: Observed, bounds: Bounds): string[] {
  const violations: string[] = [];
  const expectations = expectationsOf(scenario);
  const stays = staysOf(observed.events);
  const name = (index: number) => `${scenario.pulls[index]!.name} (#${observed.numbers[index]})`;
  const indexOf = new Map(observed.numbers.map((number, index) => [number, index]));

  // Safety: the base branch passes CI as the model judges it, and holds nothing that never answers.
  const markers = combineCiMarkers(
    Object.values(observed.baseBranchFiles).flatMap((text) => (text === null ? [] : [findCiMarkers([text])])),
  );
  if (markers.fails) violations.push('broken base branch: a change with a failing marker merged');
  for (const token of semanticConflictsOf(markers))
    violations.push(`broken base branch: two changes that conflict on ${token} both merged`);
  if (Object.values(observed.baseBranchFiles).some((text) => text?.includes(ciMarker.stuck)))
    violations.push('a change whose CI never answered merged');

  const mergedEvents = new Map<number, number>();
  for (const event of observed.events)
    if (event.type === 'merge_queue.pull_request_merged') {
      const number = event.data.pullRequest as number;
      mergedEvents.set(number, (mergedEvents.get(number) ?? 0) + 1);
    }
  for (const [number, count] of mergedEvents)
    if (count > 1) violations.push(`#${number} merged ${count} times`);

  // A flaky change on the base branch makes every later run flaky: failures after it prove nothing.
  const flakyBaseAt = firstFlakyMerge(scenario, observed, stays);
  const excused = (index: number) => failedAfterFlakyBase(flakyBaseAt, stays, observed.numbers[index]!);

  expectations.forEach((expectation, index) => {
    const number = observed.numbers[index];
    if (number === null) return void violations.push(`${scenario.pulls[index]!.name} was never opened`);
    const merged = observed.merged[index]!;
    const last = stays.filter((s) => s.pullRequest === number).at(-1);
    if (expectation === 'merged' && !merged && !excused(index))
      violations.push(
        `${name(index)} should have merged; ${last ? `its last stay ended ${last.to === null ? 'never' : `with ${last.dequeueCode}: ${last.reason}`}` : 'it never entered the queue'}`,
      );
    if (expectation === 'rejected') {
      if (merged) violations.push(`${name(index)} merged a failing change`);
      else if (!last)
        violations.push(`${name(index)} should have been dequeued, but it never entered the queue`);
      else if (last.to !== null && (last.merged || last.dequeueCode === null))
        violations.push(`${name(index)} left without a dequeue reason`);
    }
  });

  const groups = new Map<string, number[]>();
  scenario.pulls.forEach((pull, index) => {
    if (pull.conflictGroup !== null && expectations[index] === 'one-of-group')
      groups.set(pull.conflictGroup, [...(groups.get(pull.conflictGroup) ?? []), index]);
  });
  for (const [group, members] of groups) {
    const merged = members.filter((index) => observed.merged[index]);
    if (merged.length > 1)
      violations.push(`conflict group ${group}: ${merged.map(name).join(' and ')} both merged`);
    if (merged.length === 0 && members.length > 1 && !members.some(excused))
      violations.push(`conflict group ${group}: neither ${members.map(name).join(' nor ')} merged`);
  }

  for (const number of observed.stillQueued)
    violations.push(`#${number} is still queued: the queue did not settle`);

  // Liveness, the re-queue rule and the checks budget, stay by stay.
  stays.forEach((stay, position) => {
    const index = indexOf.get(stay.pullRequest);
    const who = index === undefined ? `#${stay.pullRequest}` : name(index);
    if (stay.leftAt !== null) {
      const held = overlapMs(observed.held, stay.enteredAt, stay.leftAt);
      const bound = stayBoundMs(bounds, stay.mostAlongside) + held + stay.postponedMerges * 60_000;
      const lasted = stay.leftAt - stay.enteredAt;
      if (lasted > bound)
        violations.push(
          `${who} stayed ${(lasted / 1000).toFixed(1)} s, past its bound of ${(bound / 1000).toFixed(1)} s (A = ${stay.mostAlongside})`,
        );
    }
    const budget = checksBudget(bounds, stay);
    if (stay.checksRuns > budget)
      violations.push(
        `${who} rode in ${stay.checksRuns} runs of checks in one stay, over its budget of ${budget}`,
      );
    const previous = stays
      .slice(0, position)
      .filter((s) => s.pullRequest === stay.pullRequest)
      .at(-1);
    if (previous?.dequeueCode && !previous.merged) {
      const byCommand = stay.trigger.startsWith('Command:');
      if (previous.dequeueCode === 'PR_MANUALLY_DEQUEUED' && !byCommand)
        violations.push(`${who} was queued again by ${stay.trigger} after a manual dequeue`);
      if (HOLDS_RULES_BACK.has(previous.dequeueCode) && !byCommand && stay.headSha === previous.leftHeadSha)
        violations.push(
          `${who} was queued again at the same head by ${stay.trigger} after ${previous.dequeueCode}`,
        );
    }
  });
  return violations;
}

/** When a pull request whose merged change carries a flaky marker merged, if one did. */
function firstFlakyMerge(scenario: Scenario, observed: Observed, stays: readonly Stay[]): number | null {
  const flaky = Object.values(observed.baseBranchFiles).some((text) => text?.includes(ciMarker.flaky));
  if (!flaky) return null;
  return flakyMergedAt(scenario, observed.numbers, stays) ?? 0;
}

/** When the first flaky pull request merged through the queue (ms), or null while none has. */
export function flakyMergedAt(
  scenario: Scenario,
  numbers: readonly (number | null)[],
  stays: readonly Stay[],
): number | null {
  const times = scenario.pulls
    .map((pull, index) => ({ pull, number: numbers[index] }))
    .filter(({ pull }) => pull.nature === 'flaky')
    .flatMap(({ number }) => stays.filter((s) => s.pullRequest === number && s.merged).map((s) => s.leftAt!));
  return times.length > 0 ? Math.min(...times) : null;
}

/** A pull request whose last stay ended unmerged after a flaky change reached the base: its failure proves nothing. */
export function failedAfterFlakyBase(
  flakyAt: number | null,
  stays: readonly Stay[],
  number: number | null,
): boolean {
  const last = stays.filter((s) => s.pullRequest === number).at(-1);
  return flakyAt !== null && last?.leftAt != null && last.leftAt >= flakyAt && !last.merged;
}

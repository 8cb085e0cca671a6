import { batchSizeBounds, type MergeMethod } from './policy';
import { policyOf, type Batch, type QueueEntry, type QueueState } from './state';
import {
  ancestorsOf,
  capacityOf,
  checkedPullRequests,
  checksInPlace,
  checksTimeoutSeconds,
  descendantsOf,
  holdsSlot,
  isFrozen,
  laneKeysOf,
  laneScopesOf,
  queueOrder,
  ruleOf,
} from './train';

/**
 * The planner: a pure function of the queue's state, its policy and now. It says what the queue
 * decides next on its own (steps the decider records as events) and what the code host must do
 * (effects the reactor performs and reports back as commands).
 */
export type PlanStep =
  /** A conflict's blocker merged: the held pull request now conflicts with the base (§2.8). */
  | { kind: 'drop_conflicting'; pullRequest: number }
  | { kind: 'time_out'; batchId: string }
  /** The failed batch has nothing unmerged ahead: the failure is its own. */
  | { kind: 'resolve_failure'; batchId: string }
  | { kind: 'interrupt'; batchId: string; by: number }
  /** A composed batch (a split) takes a free checks slot. */
  | { kind: 'start'; batchId: string }
  | {
      kind: 'compose';
      queueName: string;
      pullRequests: number[];
      parentIds: string[];
      scopes: string[];
      allScopes: boolean;
      reason: 'scope' | 'queue_order';
    };

export type QueueEffect =
  | {
      kind: 'create_draft';
      key: string;
      batchId: string;
      attempt: number;
      branch: string;
      baseSha: string | null;
      /** Merged onto the branch in this order: the batches ahead's pull requests, then its own. */
      pullRequests: number[];
      title: string;
    }
  | {
      kind: 'update_in_place';
      key: string;
      batchId: string;
      attempt: number;
      pullRequest: number;
      updateMethod: 'merge' | 'rebase';
    }
  | { kind: 'merge'; key: string; batchId: string; pullRequest: number; method: MergeMethod; headSha: string }
  | {
      kind: 'merge_batch';
      key: string;
      batchId: string;
      method: Extract<MergeMethod, 'fast-forward' | 'merge-batch'>;
      branch: string;
      pullRequests: number[];
    }
  | { kind: 'close_draft'; key: string; checkPullRequest: number }
  | { kind: 'delete_branch'; key: string; branch: string };

const active = (state: QueueState) => state.batches;

const slotsInUse = (state: QueueState): number => active(state).filter(holdsSlot).length;

const scopeHasRoom = (state: QueueState, scopes: readonly string[], allScopes: boolean): boolean => {
  const running = active(state).filter(holdsSlot);
  const capped = allScopes
    ? Object.keys(policyOf(state).mergeQueue.capacities)
    : laneKeysOf(scopes).filter((scope) => capacityOf(state, scope) !== null);
  return capped.every((scope) => {
    const cap = capacityOf(state, scope) ?? Infinity;
    return running.filter((b) => b.allScopes || b.scopes.includes(scope)).length < cap;
  });
};

const hasRoomFor = (state: QueueState, scopes: readonly string[], allScopes: boolean): boolean =>
  slotsInUse(state) < policyOf(state).mergeQueue.maxParallelChecks && scopeHasRoom(state, scopes, allScopes);

/** The waiting order depends on the pull requests only; states are never mutated, so it is cached per version. */
const waitingOrder = new WeakMap<object, QueueEntry[]>();

const waitingEntries = (state: QueueState): QueueEntry[] => {
  const cached = waitingOrder.get(state.pullRequests);
  if (cached) return cached;
  const order = queueOrder(
    state,
    Object.values(state.pullRequests).filter((pr) => pr.batchId === null),
  );
  waitingOrder.set(state.pullRequests, order);
  return order;
};

/** Held by a conflict with pull requests still queued. */
const isDeferred = (state: QueueState, pr: QueueEntry): boolean =>
  pr.deferredBy !== null && pr.deferredBy.some((n) => state.pullRequests[n] !== undefined);

/** Which active batches a new batch with these scopes is checked on top of (§3.1). */
export const parentsFor = (state: QueueState, scopes: readonly string[], allScopes: boolean): Batch[] => {
  const { mode } = policyOf(state).mergeQueue;
  const batches = active(state);
  if (mode === 'isolated') return [];
  if (mode === 'serial' || allScopes) return batches.length === 0 ? [] : [batches[batches.length - 1]!];
  const lanes = laneKeysOf(scopes);
  const parents: Batch[] = [];
  for (const lane of lanes) {
    const last = [...batches].reverse().find((b) => b.allScopes || laneKeysOf(b.scopes).includes(lane));
    if (last && !parents.includes(last)) parents.push(last);
  }
  return parents;
};

/** A lane stays closed behind a failed batch until its failure is resolved (§2.5). */
const blockedByFailure = (state: QueueState, parents: readonly Batch[]): boolean =>
  parents.some((p) => p.phase === 'failed' || ancestorsOf(state, p).some((a) => a.phase === 'failed'));

const targetSize = (state: QueueState, queueName: string, waitingInLane: number): number => {
  const rule = ruleOf(state, queueName);
  if (!rule) return 1;
  const { min, max } = batchSizeBounds(rule.batchSize);
  if (min === max) return min;
  // Dynamic sizing: spread the backlog over the free slots, between min and max.
  const free = Math.max(1, policyOf(state).mergeQueue.maxParallelChecks - slotsInUse(state));
  return Math.min(max, Math.max(min, Math.ceil(waitingInLane / free)));
};

interface Composition {
  step: Extract<PlanStep, { kind: 'compose' }> | null;
  /** When a batch that is not full will start anyway (batch_max_wait_time). */
  wakeAt: number | null;
}

function compose(state: QueueState, now: number): Composition {
  const policy = policyOf(state);
  const { mode } = policy.mergeQueue;
  if (state.paused) return { step: null, wakeAt: null };
  if (active(state).some((b) => b.allScopes)) return { step: null, wakeAt: null };
  const waiting = waitingEntries(state);
  const embarked = (n: number) =>
    state.pullRequests[n]?.batchId !== null && state.pullRequests[n] !== undefined;
  let wakeAt: number | null = null;
  const triedLanes = new Set<string>();

  for (const seed of waiting) {
    if (isDeferred(state, seed)) continue;
    // A stack successor waits for its predecessors to be embarked ahead of it.
    if (seed.dependsOn.some((n) => state.pullRequests[n] && !embarked(n))) continue;
    const rule = ruleOf(state, seed.queueName);
    if (!rule) continue;
    // In-place checks test the pull request on the base itself: nothing unmerged may be ahead.
    if (checksInPlace(state, rule) && active(state).length > 0) break;
    const scopes = mode === 'serial' ? [] : laneScopesOf(state, seed);
    const allScopes = seed.allScopes;
    const laneKey = `${seed.queueName}|${scopes.join(',')}|${isFrozen(seed)}|${allScopes}`;
    if (triedLanes.has(laneKey)) continue;
    triedLanes.add(laneKey);

    const stopAfterThis = mode === 'serial' || allScopes;
    const parents = parentsFor(state, scopes, allScopes);
    const barrierWaits = allScopes && active(state).length > 0;
    if (barrierWaits || blockedByFailure(state, parents) || !hasRoomFor(state, scopes, allScopes)) {
      if (stopAfterThis) break;
      continue;
    }

    const members: QueueEntry[] = [seed];
    const lane = allScopes
      ? []
      : waiting.filter(
          (pr) =>
            pr !== seed &&
            !pr.allScopes &&
            pr.queueName === seed.queueName &&
            isFrozen(pr) === isFrozen(seed) &&
            !isDeferred(state, pr) &&
            (mode === 'serial' || laneScopesOf(state, pr).join(',') === scopes.join(',')),
        );
    const size = allScopes ? 1 : targetSize(state, seed.queueName, lane.length + 1);
    const taken = new Set<number>([seed.number]);
    // Equal priority first (§2.2); within it, the most shared scopes, then the longest waiting.
    const candidates = [...lane].sort(
      (a, b) =>
        b.priority - a.priority ||
        sharedScopes(b, seed) - sharedScopes(a, seed) ||
        a.queuedAt - b.queuedAt ||
        a.number - b.number,
    );
    for (const pr of candidates) {
      if (members.length >= size) break;
      if (pr.dependsOn.some((n) => state.pullRequests[n] && !embarked(n) && !taken.has(n))) continue;
      members.push(pr);
      taken.add(pr.number);
    }
    if (members.length < size) {
      const startAt = seed.waitingSince + rule.batchMaxWaitTime * 1000;
      if (now < startAt) {
        wakeAt = wakeAt === null ? startAt : Math.min(wakeAt, startAt);
        if (stopAfterThis) break;
        continue;
      }
    }
    const ordered = queueOrder(state, members);
    const shared =
      ordered.length > 1 && ordered.every((pr) => pr.scopes.some((s) => seed.scopes.includes(s)));
    return {
      step: {
        kind: 'compose',
        queueName: seed.queueName,
        pullRequests: ordered.map((pr) => pr.number),
        parentIds: parents.map((p) => p.id),
        scopes: mode === 'parallel' ? scopes : [...new Set(ordered.flatMap((pr) => pr.scopes))].sort(),
        allScopes,
        reason: shared ? 'scope' : 'queue_order',
      },
      wakeAt,
    };
  }
  return { step: null, wakeAt };
}

const sharedScopes = (a: QueueEntry, b: QueueEntry): number =>
  a.scopes.filter((s) => b.scopes.includes(s)).length;

const timeoutAt = (state: QueueState, batch: Batch): number | null => {
  const rule = ruleOf(state, batch.queueName);
  if (!rule || batch.phase !== 'running' || batch.checksStartedAt === null) return null;
  const seconds = checksTimeoutSeconds(state, rule);
  return seconds === null ? null : batch.checksStartedAt + seconds * 1000;
};

/** A higher-priority pull request whose rule allows it interrupts running lower-priority checks. */
function interruption(state: QueueState, now: number): Extract<PlanStep, { kind: 'interrupt' }> | null {
  const { mode } = policyOf(state).mergeQueue;
  for (const pr of waitingEntries(state)) {
    if (!pr.allowCheckInterruption || isDeferred(state, pr) || pr.allScopes) continue;
    // Only a pull request that could start at once interrupts anything: one held by a stack
    // predecessor or a conflict would tear batches down again and again for nothing.
    if (
      pr.dependsOn.some((n) => state.pullRequests[n] !== undefined && state.pullRequests[n]!.batchId === null)
    )
      continue;
    const scopes = laneScopesOf(state, pr);
    const victim = active(state).find(
      (b) =>
        (b.phase === 'preparing' || b.phase === 'running') &&
        (mode === 'serial' || laneKeysOf(b.scopes).some((s) => laneKeysOf(scopes).includes(s))) &&
        b.pullRequests.every((n) => (state.pullRequests[n]?.priority ?? Infinity) < pr.priority) &&
        // Behind a failed batch nothing can start, so there is nothing to gain.
        !ancestorsOf(state, b).some((a) => a.phase === 'failed'),
    );
    if (victim && startsOnceFreed(state, victim, pr.number, now))
      return { kind: 'interrupt', batchId: victim.id, by: pr.number };
  }
  return null;
}

/**
 * Whether tearing the victim (and what is checked on top of it) down lets the newcomer start at
 * once. Anything else would tear batches down again and again for nothing (a lane blocked by a
 * failure, a capacity still full, a stack predecessor still waiting...).
 */
function startsOnceFreed(state: QueueState, victim: Batch, newcomer: number, now: number): boolean {
  const doomed = new Set([victim, ...descendantsOf(state, victim)].map((b) => b.id));
  const pullRequests: Record<number, QueueEntry> = { ...state.pullRequests };
  for (const entry of Object.values(state.pullRequests))
    if (entry.batchId !== null && doomed.has(entry.batchId))
      pullRequests[entry.number] = { ...entry, batchId: null };
  const freed: QueueState = {
    ...state,
    pullRequests,
    batches: state.batches.filter((b) => !doomed.has(b.id)),
  };
  return compose(freed, now).step?.pullRequests.includes(newcomer) ?? false;
}

/** The queue's next own decision, or null when it has nothing to do before the next command. */
export function nextStep(state: QueueState, now: number): PlanStep | null {
  for (const pr of Object.values(state.pullRequests)) {
    if (
      pr.deferredBy !== null &&
      pr.blockerMerged &&
      pr.batchId === null &&
      !pr.deferredBy.some((n) => state.pullRequests[n] !== undefined)
    )
      return { kind: 'drop_conflicting', pullRequest: pr.number };
  }
  for (const batch of active(state)) {
    const at = timeoutAt(state, batch);
    if (at !== null && now >= at) return { kind: 'time_out', batchId: batch.id };
  }
  const skip =
    policyOf(state).mergeQueue.skipIntermediateResults && policyOf(state).mergeQueue.mode !== 'isolated';
  for (const batch of active(state)) {
    if (batch.phase !== 'failed') continue;
    if (ancestorsOf(state, batch).length > 0) continue;
    // Under skip_intermediate_results a batch behind may still pass and cover this failure.
    if (skip && descendantsOf(state, batch).some((d) => d.phase !== 'failed')) continue;
    return { kind: 'resolve_failure', batchId: batch.id };
  }
  if (!state.paused) {
    const interrupt = interruption(state, now);
    if (interrupt) return interrupt;
    for (const batch of active(state)) {
      if (batch.phase !== 'waiting_slot') continue;
      if (hasRoomFor(state, batch.scopes, batch.allScopes)) return { kind: 'start', batchId: batch.id };
      break;
    }
    if (active(state).some((b) => b.phase === 'waiting_slot')) return null;
  }
  return compose(state, now).step;
}

/**
 * When the queue must be asked again (tick) if nothing else happens; null when no timer runs.
 * `now` itself when a decision is already due: a batch whose batch_max_wait_time ran out, a
 * timeout reached. A timer that looks only every so often finds a wait already over more often
 * than not, and must still tick for it.
 */
export function nextWakeAt(state: QueueState, now: number): number | null {
  if (nextStep(state, now) !== null) return now;
  const times: number[] = [];
  for (const batch of active(state)) {
    const at = timeoutAt(state, batch);
    if (at !== null) times.push(at);
  }
  for (const pr of Object.values(state.pullRequests))
    if (pr.mergeRetryAt !== null && pr.mergeRetryAt > now) times.push(pr.mergeRetryAt);
  const composition = compose(state, now);
  if (composition.wakeAt !== null) times.push(composition.wakeAt);
  return times.length === 0 ? null : Math.min(...times);
}

/** A passed batch merges once nothing it was checked on top of is left, unless paused or frozen. */
export const mergeableBatches = (state: QueueState): Batch[] =>
  state.paused
    ? []
    : active(state).filter(
        (b) =>
          b.phase === 'passed' &&
          ancestorsOf(state, b).length === 0 &&
          !b.pullRequests.some((n) => {
            const pr = state.pullRequests[n];
            return pr !== undefined && isFrozen(pr);
          }),
      );

const draftTitle = (state: QueueState, batch: Batch): string => {
  const numbers = batch.pullRequests.map((n) => `#${n}`);
  const list =
    numbers.length <= 1 ? numbers.join('') : `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
  const base = state.baseSha ? ` (${state.baseSha.slice(0, 7)})` : '';
  return `merge queue: checking ${state.baseRef ?? ''}${base}, ${list}${numbers.length > 1 ? ' together' : ''}`;
};

/** What the code host must do now; each effect has a key that stays the same until it is done. */
export function pendingEffects(state: QueueState, now: number): QueueEffect[] {
  const effects: QueueEffect[] = [];
  for (const batch of active(state)) {
    if (batch.phase !== 'preparing' || batch.branch === null) continue;
    const rule = ruleOf(state, batch.queueName);
    if (batch.checkMethod === 'in_place') {
      effects.push({
        kind: 'update_in_place',
        key: `prepare:${batch.id}:${batch.attempt}`,
        batchId: batch.id,
        attempt: batch.attempt,
        pullRequest: batch.pullRequests[0]!,
        updateMethod: rule?.updateMethod ?? 'merge',
      });
    } else {
      effects.push({
        kind: 'create_draft',
        key: `prepare:${batch.id}:${batch.attempt}`,
        batchId: batch.id,
        attempt: batch.attempt,
        branch: batch.branch,
        baseSha: state.baseSha,
        pullRequests: checkedPullRequests(state, batch),
        title: draftTitle(state, batch),
      });
    }
  }
  for (const batch of mergeableBatches(state)) {
    const method = ruleOf(state, batch.queueName)?.mergeMethod ?? 'merge';
    if ((method === 'fast-forward' || method === 'merge-batch') && batch.checkMethod === 'draft_pr') {
      effects.push({
        kind: 'merge_batch',
        key: `merge:${batch.id}`,
        batchId: batch.id,
        method,
        branch: batch.branch ?? '',
        pullRequests: batch.pullRequests,
      });
      continue;
    }
    const next = state.pullRequests[batch.pullRequests[0]!];
    if (!next || (next.mergeRetryAt !== null && next.mergeRetryAt > now)) continue;
    effects.push({
      kind: 'merge',
      key: `merge:${batch.id}:${next.number}:${next.mergeRetryAt ?? 0}`,
      batchId: batch.id,
      pullRequest: next.number,
      // In place, a fast-forward moves the base to the checked pull request's head (§2.7); a
      // merge-batch of one checked in place is a merge.
      method: method === 'merge-batch' ? 'merge' : method,
      headSha: next.headSha,
    });
  }
  for (const draft of state.draftsToClose)
    effects.push({ kind: 'close_draft', key: `close:${draft}`, checkPullRequest: draft });
  for (const branch of state.branchesToDelete ?? [])
    effects.push({ kind: 'delete_branch', key: `delete-branch:${branch}`, branch });
  return effects;
}

export const usesInPlaceChecks = checksInPlace;

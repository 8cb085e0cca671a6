import { ruleNamed, type QueueRulePolicy } from './policy';
import { policyOf, type Batch, type QueueEntry, type QueueState } from './state';

/** Reading the train: how batches relate, who waits, which rule applies. */

/** A batch's name as the status API shows it and the log records it: `<queue> #1 #2`. */
export const batchNameOf = (queueName: string, pullRequests: readonly number[]): string =>
  `${queueName} ${pullRequests.map((n) => `#${n}`).join(' ')}`;

export const batchById = (state: QueueState, id: string | null): Batch | undefined =>
  id === null ? undefined : state.batches.find((batch) => batch.id === id);

export const ruleOf = (state: QueueState, queueName: string): QueueRulePolicy | undefined =>
  ruleNamed(policyOf(state), queueName);

/** Batches this one is checked on top of, transitively, in train order. */
export const ancestorsOf = (state: QueueState, batch: Batch): Batch[] => {
  const wanted = new Set<string>();
  const visit = (b: Batch) => {
    for (const id of b.parentIds) {
      const parent = batchById(state, id);
      if (parent && !wanted.has(parent.id)) {
        wanted.add(parent.id);
        visit(parent);
      }
    }
  };
  visit(batch);
  return state.batches.filter((b) => wanted.has(b.id));
};

/** Batches checked on top of this one, transitively, in train order. */
export const descendantsOf = (state: QueueState, batch: Batch): Batch[] => {
  const found = new Set<string>([batch.id]);
  const out: Batch[] = [];
  for (const candidate of state.batches) {
    if (candidate.parentIds.some((id) => found.has(id))) {
      found.add(candidate.id);
      out.push(candidate);
    }
  }
  return out;
};

/** The pull requests a batch's check branch holds: its ancestors' then its own, in merge order. */
export const checkedPullRequests = (state: QueueState, batch: Batch): number[] => [
  ...ancestorsOf(state, batch).flatMap((b) => b.pullRequests),
  ...batch.pullRequests,
];

export const holdsSlot = (batch: Batch): boolean => batch.phase === 'preparing' || batch.phase === 'running';

export const isFrozen = (pr: QueueEntry): boolean => pr.frozenSince !== null;

/** Queue order (§2.1): priority descending, then queue time, then number; stacks keep predecessors first. */
export const byQueueOrder = (a: QueueEntry, b: QueueEntry): number =>
  b.priority - a.priority || a.queuedAt - b.queuedAt || a.number - b.number;

export const queueOrder = (state: QueueState, pullRequests: QueueEntry[]): QueueEntry[] => {
  const sorted = [...pullRequests].sort(byQueueOrder);
  const placed = new Set<number>();
  const present = new Set(sorted.map((pr) => pr.number));
  const out: QueueEntry[] = [];
  const place = (pr: QueueEntry, depth: number) => {
    if (placed.has(pr.number) || depth > 20) return;
    for (const predecessor of pr.dependsOn) {
      const before = state.pullRequests[predecessor];
      if (before && present.has(predecessor)) place(before, depth + 1);
    }
    if (!placed.has(pr.number)) {
      placed.add(pr.number);
      out.push(pr);
    }
  };
  for (const pr of sorted) place(pr, 0);
  return out;
};

/** Every queued pull request in position order: embarked ones by batch, then waiting ones (§2.1). */
export const positions = (state: QueueState): number[] => [
  ...state.batches.flatMap((batch) => batch.pullRequests),
  ...queueOrder(
    state,
    Object.values(state.pullRequests).filter((pr) => pr.batchId === null),
  ).map((pr) => pr.number),
];

/** Stacked pull requests ride in their bottom pull request's scope group (§3.2). */
export const laneScopesOf = (state: QueueState, pr: QueueEntry): string[] => {
  let bottom = pr;
  for (let depth = 0; depth < 20; depth++) {
    const below = bottom.dependsOn.map((n) => state.pullRequests[n]).find((p) => p !== undefined);
    if (!below) break;
    bottom = below;
  }
  return [...bottom.scopes].sort();
};

export const DEFAULT_LANE = '__default__';

/** The scopes a batch competes on: unscoped batches share one lane of their own. */
export const laneKeysOf = (scopes: readonly string[]): string[] =>
  scopes.length === 0 ? [DEFAULT_LANE] : [...scopes];

export const AUTO_TIMEOUT_MIN_HISTORY = 10;
export const AUTO_TIMEOUT_MARGIN = 0.2;
export const AUTO_TIMEOUT_MIN_MARGIN_SECONDS = 300;
export const MIN_CHECKS_TIMEOUT_SECONDS = 60;

/**
 * checks_timeout in seconds, or null for none. `auto`: p95 of the queue's recent successful checks
 * plus 20% (at least 5 minutes), and no timeout before 10 successful runs are known.
 */
export const checksTimeoutSeconds = (state: QueueState, rule: QueueRulePolicy): number | null => {
  if (rule.checksTimeout === null) return null;
  if (rule.checksTimeout !== 'auto') return Math.max(MIN_CHECKS_TIMEOUT_SECONDS, rule.checksTimeout);
  const history = state.recentChecksSeconds;
  if (history.length < AUTO_TIMEOUT_MIN_HISTORY) return null;
  const sorted = [...history].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
  return Math.max(
    MIN_CHECKS_TIMEOUT_SECONDS,
    Math.round(p95 + Math.max(p95 * AUTO_TIMEOUT_MARGIN, AUTO_TIMEOUT_MIN_MARGIN_SECONDS)),
  );
};

/** §2.3: in place only with one check at a time, single-PR batches, one-step CI and no retries. */
export const checksInPlace = (state: QueueState, rule: QueueRulePolicy): boolean => {
  const policy = policyOf(state);
  return (
    rule.allowInplaceChecks &&
    policy.mergeQueue.maxParallelChecks === 1 &&
    policy.rules.every(
      (r) => r.batchSize === 1 || (typeof r.batchSize === 'object' && r.batchSize.max === 1),
    ) &&
    policy.rules.every((r) => !r.twoStepCi) &&
    rule.maxChecksRetries === 0
  );
};

/** Capacity of a scope (parallel and isolated modes): an explicit entry, else the default. */
export const capacityOf = (state: QueueState, scope: string): number | null => {
  const { mergeQueue } = policyOf(state);
  if (mergeQueue.mode === 'serial') return null;
  if (scope === DEFAULT_LANE) return null;
  return mergeQueue.capacities[scope] ?? mergeQueue.defaultCapacity;
};

/**
 * What the planner needs to know about a repository's merge-queue configuration, in the engine's
 * own terms (durations in seconds). The configuration lib's typed `.mergify.yml` maps onto this in
 * the application layer; the domain never parses YAML.
 */
export type QueueMode = 'serial' | 'parallel' | 'isolated';

export type MergeMethod = 'merge' | 'rebase' | 'squash' | 'fast-forward' | 'merge-batch';

/** `batch_size`: a fixed size, or a range the planner sizes within from the backlog. */
export type BatchSize = number | { min: number; max: number };

/** `checks_timeout`: seconds, `auto` (p95 of recent successful runs plus a margin), or never. */
export type ChecksTimeout = number | 'auto' | null;

export interface QueueRulePolicy {
  name: string;
  batchSize: BatchSize;
  /** Seconds a batch that is not full waits for more pull requests, from its first one's arrival. */
  batchMaxWaitTime: number;
  checksTimeout: ChecksTimeout;
  maxChecksRetries: number;
  /** null = split until the culprit is found; 0 = dequeue the whole failed batch at once. */
  batchMaxFailureResolutionAttempts: number | null;
  mergeMethod: MergeMethod;
  /** Deprecated upstream; still honoured: false forces draft pull requests. */
  allowInplaceChecks: boolean;
  /** True when the rule has merge conditions of its own (two-step CI): checks need a draft. */
  twoStepCi: boolean;
  queueBranchPrefix: string;
  updateMethod: 'merge' | 'rebase';
}

/** `merge_queue.status_comments` (queue-semantics §1.3): how much the queue says in comments. */
export type StatusCommentsLevel = 'all' | 'outcomes' | 'none';

export interface MergeQueuePolicy {
  mode: QueueMode;
  maxParallelChecks: number;
  skipIntermediateResults: boolean;
  resetOnExternalMerge: 'always' | 'never';
  /** Per-scope cap on concurrent checks, inside maxParallelChecks (parallel and isolated modes). */
  capacities: Readonly<Record<string, number>>;
  defaultCapacity: number | null;
  queuedLabel: string | null;
  checkingLabel: string | null;
  dequeuedLabel: string | null;
  /**
   * Status comments on the pull requests (statusLinesFor). Policies recorded before the
   * setting existed lack it: read it with statusCommentsOf.
   */
  statusComments: StatusCommentsLevel;
}

/** The status-comments level, `all` (the default) for a policy recorded before the setting existed. */
export const statusCommentsOf = (policy: MergeQueuePolicy): StatusCommentsLevel =>
  (policy.statusComments as StatusCommentsLevel | undefined) ?? 'all';

export interface QueuePolicy {
  mergeQueue: MergeQueuePolicy;
  /** In processing order. */
  rules: QueueRulePolicy[];
}

/** Priority aliases of `priority_rules` (higher goes first). */
export const PRIORITY = { low: 1000, medium: 2000, high: 3000 } as const;

export const DEFAULT_QUEUE_BRANCH_PREFIX = 'mergify/merge-queue/';

export const defaultQueueRule = (name = 'default'): QueueRulePolicy => ({
  name,
  batchSize: 1,
  batchMaxWaitTime: 30,
  checksTimeout: 'auto',
  maxChecksRetries: 0,
  batchMaxFailureResolutionAttempts: null,
  mergeMethod: 'merge',
  allowInplaceChecks: true,
  twoStepCi: false,
  queueBranchPrefix: DEFAULT_QUEUE_BRANCH_PREFIX,
  updateMethod: 'merge',
});

export const defaultMergeQueuePolicy = (): MergeQueuePolicy => ({
  mode: 'serial',
  maxParallelChecks: 5,
  skipIntermediateResults: false,
  resetOnExternalMerge: 'always',
  capacities: {},
  defaultCapacity: null,
  queuedLabel: 'queued',
  checkingLabel: null,
  dequeuedLabel: 'dequeued',
  statusComments: 'all',
});

/** A repository without queue configuration still has a working queue named `default`. */
export const defaultQueuePolicy = (): QueuePolicy => ({
  mergeQueue: defaultMergeQueuePolicy(),
  rules: [defaultQueueRule()],
});

export const ruleNamed = (policy: QueuePolicy, name: string): QueueRulePolicy | undefined =>
  policy.rules.find((rule) => rule.name === name);

export const batchSizeBounds = (size: BatchSize): { min: number; max: number } =>
  typeof size === 'number' ? { min: size, max: size } : size;

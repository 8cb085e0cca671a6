import type { ConfiguredConditions } from './conditions-field';

/**
 * A validated `.mergify.yml` with every default applied (`defaults.queue_rule` and
 * `defaults.actions` merged in): what the merge-queue engine and the simulators consume. Durations
 * are seconds; legacy spellings are already mapped to their current keys.
 */
export interface MergifyConfiguration {
  /** In file order, which is the processing order. */
  queueRules: QueueRuleConfiguration[];
  mergeQueue: MergeQueueSettings;
  /** In file order: the first matching rule gives a pull request its priority. */
  priorityRules: PriorityRuleConfiguration[];
  scopes: ScopesSettings;
  pullRequestRules: PullRequestRuleConfiguration[];
  mergeProtections: MergeProtectionRuleConfiguration[];
  mergeProtectionsSettings: MergeProtectionsSettings;
  commandsRestrictions: Record<RestrictedCommand, ConfiguredConditions>;
}

export const MERGE_METHODS = ['merge', 'rebase', 'squash', 'fast-forward', 'merge-batch'] as const;
export type QueueMergeMethod = (typeof MERGE_METHODS)[number];
export const UPDATE_METHODS = ['rebase', 'merge'] as const;
export type UpdateMethod = (typeof UPDATE_METHODS)[number];
export const BRANCH_PROTECTION_INJECTION_MODES = ['queue', 'merge', 'none'] as const;
export type BranchProtectionInjectionMode = (typeof BRANCH_PROTECTION_INJECTION_MODES)[number];

/** `batch_size: 4` is `{min: 4, max: 4}`; the range form lets the engine size batches dynamically. */
export interface BatchSizeBounds {
  min: number;
  max: number;
}

/** `auto`: p95 of recent successful runs plus a margin (none until there is history); `none`: never. */
export type ChecksTimeout = { kind: 'auto' } | { kind: 'none' } | { kind: 'fixed'; seconds: number };

export interface CommitMessageFormat {
  title: 'inherit' | 'pr-title';
  body: 'inherit' | 'pr-body' | 'empty';
  trailers: Array<'co-authored-by' | 'approved-by' | 'merged-by'>;
}

export interface QueueRuleConfiguration {
  name: string;
  /** Gate entry into the queue (and staying in it). */
  queueConditions: ConfiguredConditions;
  /** Gate the merge of the checked batch. */
  mergeConditions: ConfiguredConditions;
  branchProtectionInjectionMode: BranchProtectionInjectionMode;
  batchSize: BatchSizeBounds;
  /** Whether `batch_size` was written as a range, so the legacy API can echo the same form. */
  batchSizeIsRange: boolean;
  batchMaxWaitTimeSeconds: number;
  checksTimeout: ChecksTimeout;
  maxChecksRetries: number;
  draftBotAccount: string | null;
  queueBranchPrefix: string;
  allowQueueBranchEdit: boolean;
  /** null: unlimited splitting; 0: dequeue every pull request of a failed batch at once. */
  batchMaxFailureResolutionAttempts: number | null;
  /** null: the first method the repository allows. */
  mergeMethod: QueueMergeMethod | null;
  /** null: `merge`, except `rebase` when the merge method is fast-forward (see effectiveUpdateMethod). */
  updateMethod: UpdateMethod | null;
  commitMessageTemplate: string | null;
  commitMessageFormat: CommitMessageFormat | null;
  mergeBotAccount: string | null;
  updateBotAccount: string | null;
  /** Deprecated flags, kept so the legacy API can show them; the engine computes in-place checks itself. */
  allowInplaceChecks: boolean;
  autosquash: boolean;
  autoqueue: boolean;
}

export const effectiveUpdateMethod = (rule: QueueRuleConfiguration): UpdateMethod =>
  rule.updateMethod ?? (rule.mergeMethod === 'fast-forward' ? 'rebase' : 'merge');

export const QUEUE_MODES = ['serial', 'parallel', 'isolated'] as const;
export type QueueMode = (typeof QUEUE_MODES)[number];

export interface MergeQueueSettings {
  maxParallelChecks: number;
  mode: QueueMode;
  skipIntermediateResults: boolean;
  resetOnExternalMerge: 'always' | 'never';
  queuedLabel: string | null;
  checkingLabel: string | null;
  dequeuedLabel: string | null;
  statusComments: 'all' | 'outcomes' | 'none';
  queueControlsComment: boolean;
}

/** Higher runs first; the aliases are low 1000, medium 2000, high 3000. */
export interface PriorityRuleConfiguration {
  name: string;
  conditions: ConfiguredConditions;
  priority: number;
  allowChecksInterruption: boolean;
}

export const PRIORITY_ALIASES = { low: 1000, medium: 2000, high: 3000 } as const;
export const DEFAULT_PRIORITY = PRIORITY_ALIASES.medium;

export interface FileFilters {
  include: string[];
  exclude: string[];
}

export type ScopesSource =
  { kind: 'none' } | { kind: 'manual' } | { kind: 'files'; files: Record<string, FileFilters> };

export interface ScopesSettings {
  source: ScopesSource;
  mergeQueueScope: string;
  capacities: Record<string, number>;
  defaultCapacity: number | null;
  barrierFiles: FileFilters | null;
}

export interface PullRequestRuleConfiguration {
  name: string;
  description: string | null;
  disabledReason: string | null;
  conditions: ConfiguredConditions;
  /** Action name → its options with defaults applied, in the order written. */
  actions: ActionsConfiguration;
}

/** Options of each action after defaults; every value is plain data the action runner reads. */
export type ActionsConfiguration = Partial<Record<ActionName, Record<string, unknown>>>;

export const ACTION_NAMES = [
  'assign',
  'backport',
  'close',
  'comment',
  'copy',
  'delete_head_branch',
  'dismiss_reviews',
  'edit',
  'github_actions',
  'label',
  'merge',
  'post_check',
  'queue',
  'rebase',
  'request_reviews',
  'review',
  'squash',
  'update',
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export interface MergeProtectionRuleConfiguration {
  name: string;
  description: string | null;
  if: ConfiguredConditions;
  successConditions: ConfiguredConditions;
}

export interface MergeProtectionsSettings {
  reportingMethod: 'check-runs' | 'deployments';
  postComment: boolean;
  /** null: off; true: every pull request once protections pass; a list: only matching ones. */
  autoMergeConditions: ConfiguredConditions | null;
}

export const RESTRICTED_COMMANDS = [
  'backport',
  'copy',
  'dequeue',
  'queue',
  'rebase',
  'refresh',
  'requeue',
  'squash',
  'update',
] as const;
export type RestrictedCommand = (typeof RESTRICTED_COMMANDS)[number];

import { type ConfiguredConditions, readConditions } from '../schema/conditions-field';
import { DEPRECATIONS } from '../schema/deprecation-catalogue';
import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import {
  type BatchSizeBounds,
  BRANCH_PROTECTION_INJECTION_MODES,
  type BranchProtectionInjectionMode,
  type ChecksTimeout,
  type CommitMessageFormat,
  MERGE_METHODS,
  type QueueMergeMethod,
  UPDATE_METHODS,
  type UpdateMethod,
} from '../schema/mergify-configuration';
import {
  enumReader,
  keys,
  type Mapping,
  readBoolean,
  readEnum,
  readInteger,
  readList,
  readMapping,
  readString,
  refuseUnknownKeys,
} from '../schema/readers';
import { parseDuration } from '../duration/duration';

/** Queue-semantics §1.2: every value limited to 1..128. */
export const MAX_BATCH_SIZE = 128;
/** A checks timeout under a minute is a configuration error. */
export const MIN_CHECKS_TIMEOUT_SECONDS = 60;

/** The keys a queue rule (and `defaults.queue_rule`) may set, validated; absent keys are absent. */
export interface QueueRuleFields {
  queueConditions?: ConfiguredConditions;
  mergeConditions?: ConfiguredConditions;
  branchProtectionInjectionMode?: BranchProtectionInjectionMode;
  batchSize?: { bounds: BatchSizeBounds; isRange: boolean };
  batchMaxWaitTimeSeconds?: number;
  checksTimeout?: ChecksTimeout;
  maxChecksRetries?: number;
  draftBotAccount?: string | null;
  queueBranchPrefix?: string;
  allowQueueBranchEdit?: boolean;
  batchMaxFailureResolutionAttempts?: number | null;
  mergeMethod?: QueueMergeMethod | null;
  updateMethod?: UpdateMethod | null;
  commitMessageTemplate?: string | null;
  commitMessageFormat?: CommitMessageFormat | null;
  mergeBotAccount?: string | null;
  updateBotAccount?: string | null;
  allowInplaceChecks?: boolean;
  autosquash?: boolean;
  autoqueue?: boolean;
}

const CURRENT_KEYS = keys(
  'name',
  'queue_conditions',
  'merge_conditions',
  'branch_protection_injection_mode',
  'batch_size',
  'batch_max_wait_time',
  'allow_inplace_checks',
  'checks_timeout',
  'max_checks_retries',
  'draft_bot_account',
  'queue_branch_merge_method',
  'queue_branch_prefix',
  'allow_queue_branch_edit',
  'batch_max_failure_resolution_attempts',
  'merge_method',
  'autosquash',
  'autoqueue',
  'update_method',
  'commit_message_template',
  'commit_message_format',
  'merge_bot_account',
  'update_bot_account',
);

/** Removed keys that are read, reported as deprecations and ignored. */
const IGNORED_LEGACY_KEYS = {
  speculative_checks: DEPRECATIONS.speculativeChecks,
  priority_rules: DEPRECATIONS.queueRulePriorityRules,
  allow_checks_interruption: DEPRECATIONS.queueRuleAllowChecksInterruption,
  disallow_checks_interruption_from_queues: DEPRECATIONS.disallowChecksInterruptionFromQueues,
  require_branch_protection: DEPRECATIONS.requireBranchProtection,
  allow_inplace_speculative_checks: DEPRECATIONS.legacySpeculativeAliases,
  allow_speculative_checks_interruption: DEPRECATIONS.legacySpeculativeAliases,
} as const;
const LEGACY_KEYS = keys('conditions', 'routing_conditions', ...Object.keys(IGNORED_LEGACY_KEYS));

/**
 * Reads the keys of one queue rule or of `defaults.queue_rule`. `withName` says whether `name` is
 * allowed (a rule) or not (the defaults).
 */
export function readQueueRuleFields(
  value: unknown,
  at: Cursor,
  withName: boolean,
): { fields: QueueRuleFields; mapping: Mapping } | Invalid {
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const known = withName ? CURRENT_KEYS : new Set([...CURRENT_KEYS].filter((key) => key !== 'name'));
  const problemsBefore = at.findings.problems.length;
  refuseUnknownKeys(mapping, at, known, LEGACY_KEYS);

  const fields: QueueRuleFields = {};
  const set = <K extends keyof QueueRuleFields>(name: K, read: QueueRuleFields[K] | Invalid): void => {
    if (read !== INVALID && read !== undefined) fields[name] = read;
  };
  const optional = <T>(
    key: string,
    read: (value: unknown, at: Cursor) => T | Invalid,
  ): T | Invalid | undefined => (mapping[key] === undefined ? undefined : read(mapping[key], at.at(key)));

  set('queueConditions', optional('queue_conditions', readConditions));
  set('mergeConditions', optional('merge_conditions', readConditions));
  readRenamedConditions(mapping, at, fields);
  set(
    'branchProtectionInjectionMode',
    optional('branch_protection_injection_mode', enumReader(BRANCH_PROTECTION_INJECTION_MODES)),
  );
  set('batchSize', optional('batch_size', readBatchSize));
  set('batchMaxWaitTimeSeconds', optional('batch_max_wait_time', readNonNegativeDuration));
  set('checksTimeout', optional('checks_timeout', readChecksTimeout));
  set(
    'maxChecksRetries',
    optional('max_checks_retries', (v, c) => readInteger(v, c, { min: 0 })),
  );
  set('draftBotAccount', optional('draft_bot_account', readOptionalString));
  set(
    'queueBranchPrefix',
    optional('queue_branch_prefix', (v, c) => readString(v, c)),
  );
  set('allowQueueBranchEdit', optional('allow_queue_branch_edit', readBoolean));
  set(
    'batchMaxFailureResolutionAttempts',
    optional('batch_max_failure_resolution_attempts', (v, c) =>
      v === null ? null : readInteger(v, c, { min: 0 }),
    ),
  );
  set(
    'mergeMethod',
    optional('merge_method', (v, c) => (v === null ? null : readEnum(v, c, MERGE_METHODS))),
  );
  set(
    'updateMethod',
    optional('update_method', (v, c) => (v === null ? null : readEnum(v, c, UPDATE_METHODS))),
  );
  set('commitMessageTemplate', optional('commit_message_template', readOptionalString));
  set('commitMessageFormat', optional('commit_message_format', readCommitMessageFormat));
  set('mergeBotAccount', optional('merge_bot_account', readOptionalString));
  set('updateBotAccount', optional('update_bot_account', readOptionalString));
  set('allowInplaceChecks', optional('allow_inplace_checks', readBoolean));
  set('autosquash', optional('autosquash', readBoolean));
  set('autoqueue', optional('autoqueue', readBoolean));
  readQueueBranchMergeMethod(mapping, at, fields);

  reportDeprecatedKeys(mapping, at);
  return at.findings.problems.length > problemsBefore ? INVALID : { fields, mapping };
}

function readRenamedConditions(mapping: Mapping, at: Cursor, fields: QueueRuleFields): void {
  const renames = [
    ['conditions', 'merge_conditions', 'mergeConditions', DEPRECATIONS.queueRuleConditions],
    ['routing_conditions', 'queue_conditions', 'queueConditions', DEPRECATIONS.queueRuleRoutingConditions],
  ] as const;
  for (const [legacy, current, name, notice] of renames) {
    if (mapping[legacy] === undefined) continue;
    const legacyAt = at.at(legacy);
    if (mapping[current] !== undefined) {
      legacyAt.fail(
        `'${legacy}' and '${current}' cannot both be set: '${legacy}' is the old name of '${current}'`,
      );
      continue;
    }
    legacyAt.deprecated(notice);
    // `conditions:` with nothing after it was the 2022 way of saying "no conditions".
    const read = readConditions(mapping[legacy] === null ? [] : mapping[legacy], legacyAt);
    if (read !== INVALID) fields[name] = read;
  }
}

function readQueueBranchMergeMethod(mapping: Mapping, at: Cursor, fields: QueueRuleFields): void {
  const value = mapping.queue_branch_merge_method;
  if (value === undefined || value === null) return;
  const keyAt = at.at('queue_branch_merge_method');
  if (value !== 'fast-forward') {
    keyAt.fail(`expected 'fast-forward' or null, got ${JSON.stringify(value)}`);
    return;
  }
  // The old key named how the batch branch itself is merged: it decides over `merge_method`.
  fields.mergeMethod = 'fast-forward';
}

function reportDeprecatedKeys(mapping: Mapping, at: Cursor): void {
  const flagged = [
    ['allow_inplace_checks', DEPRECATIONS.allowInplaceChecks],
    ['queue_branch_merge_method', DEPRECATIONS.queueBranchMergeMethod],
    ['autosquash', DEPRECATIONS.autosquash],
    ['autoqueue', DEPRECATIONS.autoqueue],
    ['commit_message_template', DEPRECATIONS.commitMessageTemplate],
  ] as const;
  for (const [key, notice] of flagged)
    if (mapping[key] !== undefined && mapping[key] !== null) at.at(key).deprecated(notice);
  for (const [key, notice] of Object.entries(IGNORED_LEGACY_KEYS))
    if (mapping[key] !== undefined) at.at(key).deprecated(notice);
}

function readBatchSize(value: unknown, at: Cursor): { bounds: BatchSizeBounds; isRange: boolean } | Invalid {
  if (typeof value === 'number') {
    const size = readInteger(value, at, { min: 1, max: MAX_BATCH_SIZE });
    return size === INVALID ? INVALID : { bounds: { min: size, max: size }, isRange: false };
  }
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  refuseUnknownKeys(mapping, at, keys('min', 'max'));
  const bound = (key: 'min' | 'max') =>
    mapping[key] === undefined
      ? at.at(key).fail('required key is missing')
      : readInteger(mapping[key], at.at(key), { min: 1, max: MAX_BATCH_SIZE });
  const min = bound('min');
  const max = bound('max');
  if (min === INVALID || max === INVALID || at.findings.problems.length > before) return INVALID;
  if (min > max) return at.at('min').fail(`min (${min}) cannot be greater than max (${max})`);
  return { bounds: { min, max }, isRange: true };
}

export function readDurationSeconds(value: unknown, at: Cursor): number | Invalid {
  const text = readString(value, at);
  if (text === INVALID) return INVALID;
  const parsed = parseDuration(text);
  return parsed.ok ? parsed.seconds : at.fail(parsed.reason);
}

function readNonNegativeDuration(value: unknown, at: Cursor): number | Invalid {
  const seconds = readDurationSeconds(value, at);
  if (seconds === INVALID) return INVALID;
  return seconds < 0 ? at.fail('a duration cannot be negative') : seconds;
}

function readChecksTimeout(value: unknown, at: Cursor): ChecksTimeout | Invalid {
  if (value === null) return { kind: 'none' };
  if (value === 'auto') return { kind: 'auto' };
  const seconds = readDurationSeconds(value, at);
  if (seconds === INVALID) return INVALID;
  if (seconds < MIN_CHECKS_TIMEOUT_SECONDS)
    return at.fail(`must be at least 60 seconds, 'auto' or null (got ${seconds} seconds)`);
  return { kind: 'fixed', seconds };
}

function readOptionalString(value: unknown, at: Cursor): string | null | Invalid {
  return value === null ? null : readString(value, at);
}

function readCommitMessageFormat(value: unknown, at: Cursor): CommitMessageFormat | null | Invalid {
  if (value === null) return null;
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  refuseUnknownKeys(mapping, at, keys('title', 'body', 'trailers'));
  const title =
    mapping.title === undefined
      ? 'inherit'
      : readEnum(mapping.title, at.at('title'), ['inherit', 'pr-title'] as const);
  const body =
    mapping.body === undefined
      ? 'inherit'
      : readEnum(mapping.body, at.at('body'), ['inherit', 'pr-body', 'empty'] as const);
  const trailers =
    mapping.trailers === undefined
      ? []
      : readList(
          mapping.trailers,
          at.at('trailers'),
          enumReader(['co-authored-by', 'approved-by', 'merged-by'] as const),
        );
  if (title === INVALID || body === INVALID || trailers === INVALID || at.findings.problems.length > before)
    return INVALID;
  return { title, body, trailers };
}

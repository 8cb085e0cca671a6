import { NO_CONDITIONS } from '../schema/conditions-field';
import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import type { MergeQueueSettings, QueueRuleConfiguration } from '../schema/mergify-configuration';
import { readString } from '../schema/readers';
import { type QueueRuleFields, readQueueRuleFields } from './queue-rule-fields';

/** Queue-semantics §1.2: at most 50 queue rules. */
export const MAX_QUEUE_RULES = 50;

const BUILT_IN: Required<Omit<QueueRuleFields, 'batchSize'>> &
  Pick<QueueRuleConfiguration, 'batchSize' | 'batchSizeIsRange'> = {
  queueConditions: NO_CONDITIONS,
  mergeConditions: NO_CONDITIONS,
  branchProtectionInjectionMode: 'queue',
  batchSize: { min: 1, max: 1 },
  batchSizeIsRange: false,
  batchMaxWaitTimeSeconds: 30,
  checksTimeout: { kind: 'auto' },
  maxChecksRetries: 0,
  draftBotAccount: null,
  queueBranchPrefix: 'mergify/merge-queue/',
  allowQueueBranchEdit: false,
  batchMaxFailureResolutionAttempts: null,
  mergeMethod: null,
  updateMethod: null,
  commitMessageTemplate: null,
  commitMessageFormat: null,
  mergeBotAccount: null,
  updateBotAccount: null,
  allowInplaceChecks: true,
  autosquash: false,
  autoqueue: false,
};

/**
 * `queue_rules`: each rule's own keys win over `defaults.queue_rule`, which wins over the built-in
 * defaults. Names are unique; the rules that depend on `merge_queue` are checked here too.
 */
export function readQueueRules(
  value: unknown,
  at: Cursor,
  defaults: QueueRuleFields,
  mergeQueue: MergeQueueSettings,
): QueueRuleConfiguration[] | Invalid {
  if (value === null) return [];
  if (!Array.isArray(value)) return at.fail('expected a list of queue rules');
  if (value.length > MAX_QUEUE_RULES)
    return at.fail(`must have at most ${MAX_QUEUE_RULES} queue rules, got ${value.length}`);
  const rules: QueueRuleConfiguration[] = [];
  const seen = new Map<string, number>();
  let valid = true;
  value.forEach((item, index) => {
    const ruleAt = at.at(index);
    const rule = readQueueRule(item, ruleAt, defaults, mergeQueue);
    if (rule === INVALID) {
      valid = false;
      return;
    }
    const first = seen.get(rule.name);
    if (first !== undefined) {
      ruleAt.at('name').fail(`queue rule name '${rule.name}' is already used by queue_rules[${first}]`);
      valid = false;
      return;
    }
    seen.set(rule.name, index);
    rules.push(rule);
  });
  return valid ? rules : INVALID;
}

function readQueueRule(
  value: unknown,
  at: Cursor,
  defaults: QueueRuleFields,
  mergeQueue: MergeQueueSettings,
): QueueRuleConfiguration | Invalid {
  const read = readQueueRuleFields(value, at, true);
  if (read === INVALID) return INVALID;
  const { fields, mapping } = read;
  const name =
    mapping.name === undefined
      ? at.at('name').fail('required key is missing')
      : readString(mapping.name, at.at('name'));
  if (name === INVALID) return INVALID;

  const pick = <K extends keyof QueueRuleFields>(key: K) => fields[key] ?? defaults[key];
  const batchSize = pick('batchSize');
  const rule: QueueRuleConfiguration = {
    name,
    queueConditions: pick('queueConditions') ?? BUILT_IN.queueConditions,
    mergeConditions: pick('mergeConditions') ?? BUILT_IN.mergeConditions,
    branchProtectionInjectionMode:
      pick('branchProtectionInjectionMode') ?? BUILT_IN.branchProtectionInjectionMode,
    batchSize: batchSize?.bounds ?? BUILT_IN.batchSize,
    batchSizeIsRange: batchSize?.isRange ?? BUILT_IN.batchSizeIsRange,
    batchMaxWaitTimeSeconds: pick('batchMaxWaitTimeSeconds') ?? BUILT_IN.batchMaxWaitTimeSeconds,
    checksTimeout: pick('checksTimeout') ?? BUILT_IN.checksTimeout,
    maxChecksRetries: pick('maxChecksRetries') ?? BUILT_IN.maxChecksRetries,
    draftBotAccount: valueOr(pick('draftBotAccount'), BUILT_IN.draftBotAccount),
    queueBranchPrefix: pick('queueBranchPrefix') ?? BUILT_IN.queueBranchPrefix,
    allowQueueBranchEdit: pick('allowQueueBranchEdit') ?? BUILT_IN.allowQueueBranchEdit,
    batchMaxFailureResolutionAttempts: valueOr(
      pick('batchMaxFailureResolutionAttempts'),
      BUILT_IN.batchMaxFailureResolutionAttempts,
    ),
    mergeMethod: valueOr(pick('mergeMethod'), BUILT_IN.mergeMethod),
    updateMethod: valueOr(pick('updateMethod'), BUILT_IN.updateMethod),
    commitMessageTemplate: valueOr(pick('commitMessageTemplate'), BUILT_IN.commitMessageTemplate),
    commitMessageFormat: valueOr(pick('commitMessageFormat'), BUILT_IN.commitMessageFormat),
    mergeBotAccount: valueOr(pick('mergeBotAccount'), BUILT_IN.mergeBotAccount),
    updateBotAccount: valueOr(pick('updateBotAccount'), BUILT_IN.updateBotAccount),
    allowInplaceChecks: pick('allowInplaceChecks') ?? BUILT_IN.allowInplaceChecks,
    autosquash: pick('autosquash') ?? BUILT_IN.autosquash,
    autoqueue: pick('autoqueue') ?? BUILT_IN.autoqueue,
  };
  return checkQueueRuleCoherence(rule, at, mergeQueue) ? rule : INVALID;
}

/** `undefined` (not written anywhere) falls back; an explicit null stays null. */
const valueOr = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);

/** The cross-key rules of queue-semantics §1.2 and §1.3. */
function checkQueueRuleCoherence(
  rule: QueueRuleConfiguration,
  at: Cursor,
  mergeQueue: MergeQueueSettings,
): boolean {
  const before = at.findings.problems.length;
  if (rule.allowQueueBranchEdit && rule.mergeMethod !== 'merge-batch' && rule.mergeMethod !== 'fast-forward')
    at.at('allow_queue_branch_edit').fail(
      "allow_queue_branch_edit needs merge_method set to 'merge-batch' or 'fast-forward'",
    );
  if (rule.mergeMethod === 'merge-batch' && rule.batchSize.max <= 1)
    at.at('merge_method').fail("merge_method 'merge-batch' needs a batch_size greater than 1");
  if (rule.mergeMethod === 'fast-forward' && mergeQueue.mode !== 'serial')
    at.at('merge_method').fail(
      `merge_method 'fast-forward' is not supported in ${mergeQueue.mode} mode (merge_queue.mode)`,
    );
  if (rule.commitMessageTemplate !== null && rule.commitMessageFormat !== null)
    at.at('commit_message_format').fail(
      'commit_message_template and commit_message_format cannot both be set',
    );
  return at.findings.problems.length === before;
}

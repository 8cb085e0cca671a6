import { effectiveUpdateMethod, type QueueRuleConfiguration } from '../domain/schema/mergify-configuration';

/**
 * Spec "Legacy queues" QueueRule: `{name, config}` with the keys the spec lists. Durations are
 * seconds, as in Mergify's published example; `checks_timeout` is seconds, `"auto"` or null.
 * `priority` is the rule's weight in processing order (the first rule has the highest), the value
 * the 2022 engine gave every queue rule (queue-semantics §1.2).
 */
export interface QueueRuleJson {
  name: string;
  config: Record<string, unknown>;
}

export function queueRuleJson(rule: QueueRuleConfiguration, index: number, count: number): QueueRuleJson {
  return {
    name: rule.name,
    config: {
      priority: count - index,
      batch_size: rule.batchSizeIsRange
        ? { min: rule.batchSize.min, max: rule.batchSize.max }
        : rule.batchSize.max,
      batch_max_wait_time: rule.batchMaxWaitTimeSeconds,
      allow_inplace_checks: rule.allowInplaceChecks,
      allow_queue_branch_edit: rule.allowQueueBranchEdit,
      checks_timeout:
        rule.checksTimeout.kind === 'fixed'
          ? rule.checksTimeout.seconds
          : rule.checksTimeout.kind === 'auto'
            ? 'auto'
            : null,
      draft_bot_account: rule.draftBotAccount,
      queue_branch_prefix: rule.queueBranchPrefix,
      queue_branch_merge_method: rule.mergeMethod === 'fast-forward' ? 'fast-forward' : null,
      batch_max_failure_resolution_attempts: rule.batchMaxFailureResolutionAttempts,
      commit_message_template: rule.commitMessageTemplate,
      merge_bot_account: rule.mergeBotAccount,
      merge_method: rule.mergeMethod,
      update_bot_account: rule.updateBotAccount,
      update_method: effectiveUpdateMethod(rule),
      autosquash: rule.autosquash,
    },
  };
}

import type { MergifyConfiguration, QueueRuleConfiguration } from '@switchyard/mergify-config';
import {
  defaultQueuePolicy,
  type ChecksTimeout,
  type MergeMethod,
  type QueuePolicy,
  type QueueRulePolicy,
} from '../domain/policy';

/**
 * The validated `.mergify.yml` (libs/mergify-config) as the engine's queue policy. The configuration speaks
 * the file's language; the domain only knows what the planner needs.
 */
export function queuePolicyFromConfiguration(
  configuration: MergifyConfiguration,
  options: { repositoryMergeMethod?: MergeMethod } = {},
): QueuePolicy {
  const defaults = defaultQueuePolicy();
  const { mergeQueue, scopes } = configuration;
  const rules = configuration.queueRules.map((rule) =>
    ruleFrom(rule, options.repositoryMergeMethod ?? 'merge'),
  );
  return {
    mergeQueue: {
      mode: mergeQueue.mode,
      maxParallelChecks: mergeQueue.maxParallelChecks,
      skipIntermediateResults: mergeQueue.skipIntermediateResults,
      resetOnExternalMerge: mergeQueue.resetOnExternalMerge,
      capacities: { ...scopes.capacities },
      defaultCapacity: scopes.defaultCapacity,
      queuedLabel: mergeQueue.queuedLabel,
      checkingLabel: mergeQueue.checkingLabel,
      dequeuedLabel: mergeQueue.dequeuedLabel,
      statusComments: mergeQueue.statusComments,
    },
    // A repository without queue rules still has a working queue (queue-semantics §1.1).
    rules: rules.length > 0 ? rules : defaults.rules,
  };
}

function ruleFrom(rule: QueueRuleConfiguration, repositoryMergeMethod: MergeMethod): QueueRulePolicy {
  const { min, max } = rule.batchSize;
  const checksTimeout: ChecksTimeout =
    rule.checksTimeout.kind === 'auto'
      ? 'auto'
      : rule.checksTimeout.kind === 'none'
        ? null
        : rule.checksTimeout.seconds;
  const mergeMethod = rule.mergeMethod ?? repositoryMergeMethod;
  return {
    name: rule.name,
    batchSize: rule.batchSizeIsRange ? { min, max } : max,
    batchMaxWaitTime: rule.batchMaxWaitTimeSeconds,
    checksTimeout,
    maxChecksRetries: rule.maxChecksRetries,
    batchMaxFailureResolutionAttempts: rule.batchMaxFailureResolutionAttempts,
    mergeMethod,
    allowInplaceChecks: rule.allowInplaceChecks,
    twoStepCi: isTwoStep(rule),
    queueBranchPrefix: rule.queueBranchPrefix,
    updateMethod: rule.updateMethod ?? (mergeMethod === 'fast-forward' ? 'rebase' : 'merge'),
  };
}

/** Two-step CI: merge conditions of their own, beyond the queue conditions (§2.3 forbids in-place checks then). */
const isTwoStep = (rule: QueueRuleConfiguration): boolean => {
  const merge = rule.mergeConditions.source;
  if (merge === true || merge.length === 0) return false;
  return JSON.stringify(merge) !== JSON.stringify(rule.queueConditions.source);
};

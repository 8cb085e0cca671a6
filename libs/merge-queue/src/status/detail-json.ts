import type { CheckOnHead } from '@switchyard/code-host';
import { priorityAlias, renderConditionMarkdown, type ConditionEvaluation } from '@switchyard/mergify-config';
import { batchSizeBounds, type QueueRulePolicy } from '../domain/policy';
import type { Batch, QueueEntry } from '../domain/state';
import { queuePositionOf } from '../domain/presentation';
import { batchById, ruleOf } from '../domain/train';
import { checksTimeoutAtOf, iso, type RenderContext } from './status-json';

/** The spec's MergeQueuePullRequestDetail and the legacy PullRequestQueued, from a status fold. */
export interface QueueRuleJson {
  name: string;
  config: Record<string, unknown>;
}

export interface QueueCheckJson {
  name: string;
  description: string;
  url: string | null;
  details_url: string | null;
  state: string;
  avatar_url: string | null;
}

export interface MergeabilityCheckJson {
  check_type: 'in_place' | 'draft_pr';
  queue_pull_request_number: number;
  started_at: string | null;
  ci_ended_at: string | null;
  ci_state: 'pending' | 'success' | 'failed';
  state: string;
  checks: QueueCheckJson[];
  conditions_evaluation: ConditionEvaluation | null;
}

export interface PullRequestDetailJson {
  number: number;
  queued_at: string;
  estimated_time_of_merge: string | null;
  position: number;
  priority_rule_name: string;
  queue_rule_name: string;
  checks_timeout_at: string | null;
  queue_rule: QueueRuleJson;
  mergeability_check: MergeabilityCheckJson | null;
}

export const queueRuleJson = (name: string, rule: QueueRulePolicy | undefined): QueueRuleJson => ({
  name,
  config: rule
    ? {
        batch_size: batchSizeBounds(rule.batchSize).max,
        batch_max_wait_time: `${rule.batchMaxWaitTime} s`,
        checks_timeout:
          rule.checksTimeout === null
            ? null
            : rule.checksTimeout === 'auto'
              ? 'auto'
              : `${rule.checksTimeout} s`,
        allow_inplace_checks: rule.allowInplaceChecks,
        queue_branch_prefix: rule.queueBranchPrefix,
        batch_max_failure_resolution_attempts: rule.batchMaxFailureResolutionAttempts,
        merge_method: rule.mergeMethod,
        update_method: rule.updateMethod,
        max_checks_retries: rule.maxChecksRetries,
      }
    : {},
});

const queueCheckJson = (check: CheckOnHead): QueueCheckJson => ({
  name: check.name,
  description: `${check.name}: ${check.state}`,
  url: check.detailsUrl,
  details_url: check.detailsUrl,
  state: check.state,
  avatar_url: null,
});

const QUEUE_CHECK_NAME = 'Mergify Merge Queue';

function ciStateOf(batch: Batch): MergeabilityCheckJson['ci_state'] {
  if (batch.phase === 'passed') return 'success';
  if (batch.phase === 'failed') return 'failed';
  return 'pending';
}

export function mergeabilityCheckJson(
  ctx: RenderContext,
  batch: Batch | undefined,
): MergeabilityCheckJson | null {
  if (!batch || batch.checkPullRequest === null) return null;
  const draft = ctx.snapshots.get(batch.checkPullRequest);
  const facts = ctx.fold.batches[batch.id];
  const ciState = ciStateOf(batch);
  return {
    check_type: batch.checkMethod,
    queue_pull_request_number: batch.checkPullRequest,
    started_at: iso(batch.checksStartedAt),
    ci_ended_at: iso(facts?.ciFinishedAt),
    ci_state: ciState,
    state: ciState === 'failed' ? 'failure' : ciState,
    checks: (draft?.checks ?? []).filter((check) => check.name !== QUEUE_CHECK_NAME).map(queueCheckJson),
    conditions_evaluation: ctx.conditions?.get(batch.id)?.evaluation ?? null,
  };
}

export function pullRequestDetailJson(ctx: RenderContext, pr: QueueEntry): PullRequestDetailJson {
  const state = ctx.fold.queue;
  const batch = batchById(state, pr.batchId);
  return {
    number: pr.number,
    queued_at: iso(pr.queuedAt)!,
    estimated_time_of_merge: iso(ctx.estimates.pullRequests[pr.number]?.mergeAt),
    position: queuePositionOf(state, pr.number),
    priority_rule_name: pr.priorityRuleName ?? '',
    queue_rule_name: pr.queueName,
    checks_timeout_at: batch ? iso(checksTimeoutAtOf(ctx.fold, batch)) : null,
    queue_rule: queueRuleJson(pr.queueName, ruleOf(state, pr.queueName)),
    mergeability_check: mergeabilityCheckJson(ctx, batch),
  };
}

/** Legacy GET queues: PullRequestQueued. */
export function pullRequestQueuedJson(ctx: RenderContext, pr: QueueEntry) {
  const state = ctx.fold.queue;
  const batch = batchById(state, pr.batchId);
  const check = mergeabilityCheckJson(ctx, batch);
  return {
    number: pr.number,
    position: queuePositionOf(state, pr.number),
    priority: pr.priority,
    effective_priority: pr.priority,
    priority_alias: priorityAlias(pr.priority),
    queue_rule: queueRuleJson(pr.queueName, ruleOf(state, pr.queueName)),
    queued_at: iso(pr.queuedAt)!,
    speculative_check_pull_request: check && {
      in_place: check.check_type === 'in_place',
      number: check.queue_pull_request_number,
      started_at: check.started_at,
      ended_at: check.ci_ended_at,
      checks: check.checks,
      evaluated_conditions: check.conditions_evaluation
        ? renderConditionMarkdown(check.conditions_evaluation)
        : '',
      state: check.state,
    },
    mergeability_check: check && {
      check_type: check.check_type,
      pull_request_number: check.queue_pull_request_number,
      started_at: check.started_at,
      ended_at: check.ci_ended_at,
      state: check.state,
    },
    estimated_time_of_merge: iso(ctx.estimates.pullRequests[pr.number]?.mergeAt),
    partition_name: '__default__',
  };
}

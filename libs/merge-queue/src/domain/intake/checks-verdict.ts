import type { CheckOnHead, PullRequestSnapshot } from '@switchyard/code-host';
import type { QueueRuleConfiguration } from '@switchyard/mergify-config';
import { evaluateConditions, type ConditionEvaluation } from '@switchyard/mergify-config/conditions';
import type { QueueCheck } from '../events';

/** The check run the engine itself posts on queued pull requests: never part of a batch's verdict. */
export const QUEUE_CHECK_NAME = 'Mergify Merge Queue';

const FAILING: ReadonlySet<string> = new Set(['failure', 'cancelled', 'timed_out', 'action_required']);

export type ChecksVerdict =
  | { conclusion: 'success' }
  | { conclusion: 'failure'; unsuccessfulChecks: QueueCheck[] }
  | { conclusion: 'pending' };

const queueCheckOf = (check: CheckOnHead): QueueCheck => ({
  name: check.name,
  description: `${check.name} ended with ${check.state}`,
  url: check.detailsUrl,
  detailsUrl: check.detailsUrl,
  state: check.state === 'stale' ? 'stale' : check.state,
  avatarUrl: null,
});

/**
 * The queue rule's merge conditions judged for a batch (queue-semantics §2.4): every pull request
 * of the batch with the check pull request's checks standing in for its own (the check pull
 * request itself when the batch has none left). Null when the rule has no merge conditions.
 */
export function evaluateMergeConditions(
  rule: QueueRuleConfiguration | null | undefined,
  checkPullRequest: PullRequestSnapshot,
  batchPullRequests: readonly PullRequestSnapshot[],
  now: Date,
): ConditionEvaluation | null {
  const merge = rule?.mergeConditions;
  if (merge === undefined || merge.source === true || merge.source.length === 0) return null;
  const contexts = (batchPullRequests.length > 0 ? batchPullRequests : [checkPullRequest]).map(
    (pullRequest) => ({ pullRequest: { ...pullRequest, checks: checkPullRequest.checks }, now }),
  );
  return evaluateConditions(merge.tree, contexts);
}

/**
 * Judges the checks on a batch's check pull request (a draft, or the pull request itself when
 * checked in place), queue-semantics §2.4. With merge conditions, every pull request of the batch
 * is judged with the check pull request's checks standing in for its own: all match, the batch
 * passed. Otherwise (or without merge conditions) a failing check fails it, and without merge
 * conditions every check having succeeded passes it; anything else waits for more results.
 */
export function judgeBatchChecks(
  rule: QueueRuleConfiguration | null,
  checkPullRequest: PullRequestSnapshot,
  batchPullRequests: readonly PullRequestSnapshot[],
  now: Date,
): ChecksVerdict {
  const checks = checkPullRequest.checks.filter((check) => check.name !== QUEUE_CHECK_NAME);
  const failing = checks.filter((check) => FAILING.has(check.state));
  const evaluation = evaluateMergeConditions(rule, checkPullRequest, batchPullRequests, now);
  const hasMergeConditions = evaluation !== null;
  if (evaluation?.match) return { conclusion: 'success' };
  if (failing.length > 0) return { conclusion: 'failure', unsuccessfulChecks: failing.map(queueCheckOf) };
  if (hasMergeConditions || checks.length === 0) return { conclusion: 'pending' };
  return checks.every((check) => check.state !== 'pending')
    ? { conclusion: 'success' }
    : { conclusion: 'pending' };
}

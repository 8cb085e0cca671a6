import type { LogEventType } from '@switchyard/activity-log-contract';

export const OUTCOMES = ['success', 'failure', 'pending', 'neutral'] as const;
export type Outcome = (typeof OUTCOMES)[number];

type Metadata = Readonly<Record<string, unknown>>;
type OutcomeRule = Outcome | ((metadata: Metadata) => Outcome);

/**
 * The outcome of every log record, in one table. The outcome is derived from the type; five types
 * refine it from their metadata. Observed in Mergify (queue-semantics §6): leave with merged true is
 * success, a dequeue is failure, failed checks_end is failure, checks.change is neutral. The rest
 * follows one reading, stated here so it can be argued with:
 *   - success: an action did what it was asked to (label, comment, merge, rebase, ...) or a queue
 *     step reached its goal (merged; a bisection that found the culprit);
 *   - failure: the goal was missed for good (left without merging, checks failed or aborted for
 *     good, a dequeue, a stopped label loop, a backport with conflicts, a retry refused for quota);
 *   - pending: something is under way or waiting (entered, checks running or postponed, a
 *     bisection started, a conflict that defers the merge);
 *   - neutral: bookkeeping and configuration (queue size, running checks, batch composition,
 *     commands, pause, freeze, quarantine, product and auto-quarantine switches), and checks
 *     interrupted but re-embarked (the pull request stays queued, no verdict yet).
 *
 * | type                                   | outcome                                                  |
 * |----------------------------------------|----------------------------------------------------------|
 * | action.assign, action.close, action.comment, action.delete_head_branch, action.dismiss_reviews, |
 * |   action.edit, action.github_actions, action.label, action.merge, action.rebase, action.refresh, |
 * |   action.request_reviews, action.review, action.squash, action.update | success          |
 * | action.backport, action.copy           | failure when conflicts is true, else success             |
 * | action.dequeue                         | failure                                                  |
 * | action.label.loop_stopped              | failure                                                  |
 * | action.post_check                      | from conclusion: success -> success; failure, error,     |
 * |                                        | cancelled, timed_out, action_required -> failure;        |
 * |                                        | pending -> pending; anything else -> neutral             |
 * | action.queue.enter                     | pending                                                  |
 * | action.queue.checks_start              | pending                                                  |
 * | action.queue.checks_postponed          | pending                                                  |
 * | action.queue.conflict_deferred         | pending                                                  |
 * | action.queue.batch_bisection_start     | pending                                                  |
 * | action.queue.batch_bisection_end       | failure when max_failure_resolution_reached; success     |
 * |                                        | when culprit_found; else neutral                         |
 * | action.queue.checks_end                | aborted: REEMBARKED -> neutral, DEFINITIVE -> failure;   |
 * |                                        | not aborted: checks_timed_out -> failure, else by        |
 * |                                        | speculative_check_pull_request.checks_conclusion:        |
 * |                                        | success, neutral, skipped -> success; pending -> pending;|
 * |                                        | failure, error, cancelled, timed_out, action_required,   |
 * |                                        | stale -> failure                                         |
 * | action.queue.merged                    | success                                                  |
 * | action.queue.leave                     | success when merged is true, else failure                |
 * | action.queue.change, action.queue.checks.change, action.queue.batch_composition | neutral |
 * | ci_insights.job_retried                | retried -> success; skipped_quota_exceeded -> failure    |
 * | ci_insights.auto_quarantine.*, command.*, product.*, queue.pause.*, scheduled_freeze.*,       |
 * |   test.quarantined, test.dequarantined | neutral                                                  |
 *
 * A type missing from the table (a mapping ahead of this list) is neutral rather than an error, so
 * a new domain event never stops the projection.
 */
export const OUTCOME_RULES: Readonly<Record<LogEventType, OutcomeRule>> = {
  'action.assign': 'success',
  'action.backport': (m) => (m.conflicts === true ? 'failure' : 'success'),
  'action.close': 'success',
  'action.comment': 'success',
  'action.copy': (m) => (m.conflicts === true ? 'failure' : 'success'),
  'action.delete_head_branch': 'success',
  'action.dequeue': 'failure',
  'action.dismiss_reviews': 'success',
  'action.edit': 'success',
  'action.github_actions': 'success',
  'action.label': 'success',
  'action.label.loop_stopped': 'failure',
  'action.merge': 'success',
  'action.post_check': (m) => postedCheckOutcome(m.conclusion),
  'action.queue.batch_bisection_end': (m) =>
    m.max_failure_resolution_reached === true ? 'failure' : m.culprit_found === true ? 'success' : 'neutral',
  'action.queue.batch_bisection_start': 'pending',
  'action.queue.batch_composition': 'neutral',
  'action.queue.change': 'neutral',
  'action.queue.checks.change': 'neutral',
  'action.queue.checks_end': (m) => checksEndOutcome(m),
  'action.queue.checks_postponed': 'pending',
  'action.queue.checks_start': 'pending',
  'action.queue.conflict_deferred': 'pending',
  'action.queue.enter': 'pending',
  'action.queue.leave': (m) => (m.merged === true ? 'success' : 'failure'),
  'action.queue.merged': 'success',
  'action.rebase': 'success',
  'action.refresh': 'success',
  'action.request_reviews': 'success',
  'action.review': 'success',
  'action.squash': 'success',
  'action.update': 'success',
  'ci_insights.auto_quarantine.disabled': 'neutral',
  'ci_insights.auto_quarantine.enabled': 'neutral',
  'ci_insights.auto_quarantine.modified': 'neutral',
  'ci_insights.job_retried': (m) => (m.outcome === 'skipped_quota_exceeded' ? 'failure' : 'success'),
  'command.dequeue': 'neutral',
  'command.queue': 'neutral',
  'product.disabled': 'neutral',
  'product.enabled': 'neutral',
  'queue.pause.create': 'neutral',
  'queue.pause.delete': 'neutral',
  'queue.pause.update': 'neutral',
  'scheduled_freeze.create': 'neutral',
  'scheduled_freeze.delete': 'neutral',
  'scheduled_freeze.update': 'neutral',
  'test.dequarantined': 'neutral',
  'test.quarantined': 'neutral',
};

const FAILED_CONCLUSIONS = new Set(['failure', 'error', 'cancelled', 'timed_out', 'action_required']);

/** A check the rules posted: its own conclusion, neutral when it has no verdict. */
function postedCheckOutcome(conclusion: unknown): Outcome {
  if (conclusion === 'success') return 'success';
  if (conclusion === 'pending') return 'pending';
  if (typeof conclusion === 'string' && FAILED_CONCLUSIONS.has(conclusion)) return 'failure';
  return 'neutral';
}

/** Queue checks: neutral and skipped checks let a batch pass; stale results count against it. */
function queueChecksOutcome(conclusion: unknown): Outcome {
  if (conclusion === 'success' || conclusion === 'neutral' || conclusion === 'skipped') return 'success';
  if (conclusion === 'pending') return 'pending';
  return 'failure';
}

function checksEndOutcome(m: Metadata): Outcome {
  if (m.aborted === true) return m.abort_status === 'REEMBARKED' ? 'neutral' : 'failure';
  const check = (m.speculative_check_pull_request ?? {}) as Metadata;
  if (check.checks_timed_out === true) return 'failure';
  return queueChecksOutcome(check.checks_conclusion);
}

export function deriveOutcome(type: string, metadata: Metadata): Outcome {
  const rule = (OUTCOME_RULES as Readonly<Record<string, OutcomeRule>>)[type];
  if (rule === undefined) return 'neutral';
  return typeof rule === 'function' ? rule(metadata) : rule;
}

import type { Deprecation } from './deprecation';

type Notice = Omit<Deprecation, 'path'>;

/**
 * Deprecated and removed forms Switchyard still reads (queue-semantics §8.2 and the Mergify
 * changelog), each with the date after which Mergify rejects it. A form whose date has passed is
 * still accepted here, so a repository moving over keeps working, and the simulator says what to
 * change. Where Mergify published no removal date, the date is the one it stopped having any
 * effect, and the message says so.
 */
export const DEPRECATIONS = {
  queueRuleConditions: {
    message: '`conditions` in a queue rule is deprecated: rename it to `merge_conditions` (same meaning).',
    deadline: '2026-07-31',
  },
  queueRuleRoutingConditions: {
    message:
      '`routing_conditions` in a queue rule is deprecated: rename it to `queue_conditions` (same meaning).',
    deadline: '2026-07-31',
  },
  commitMessageTemplate: {
    message:
      '`commit_message_template` is deprecated: describe the commit message with `commit_message_format` instead.',
    deadline: '2026-09-30',
  },
  autoqueue: {
    message: '`autoqueue` is deprecated: use `merge_protections_settings.auto_merge_conditions` instead.',
    deadline: '2026-07-16',
  },
  allowInplaceChecks: {
    message:
      '`allow_inplace_checks` no longer has any effect (in-place checks are decided automatically); remove it. No removal date was published; it stopped applying on this date.',
    deadline: '2025-09-30',
  },
  queueBranchMergeMethod: {
    message:
      '`queue_branch_merge_method` is deprecated: write `merge_method: fast-forward` instead. No removal date was published; it was deprecated on this date.',
    deadline: '2026-04-01',
  },
  autosquash: {
    message: '`autosquash` is deprecated. No removal date was published; it was deprecated on this date.',
    deadline: '2026-01-27',
  },
  speculativeChecks: {
    message:
      '`speculative_checks` in a queue rule was replaced by `merge_queue.max_parallel_checks`; it is ignored here. Move the value there.',
    deadline: '2024-09-23',
  },
  queueRulePriorityRules: {
    message:
      '`priority_rules` inside a queue rule was removed: priority rules are a top-level section now; this one is ignored.',
    deadline: '2025-02-18',
  },
  queueRuleAllowChecksInterruption: {
    message:
      '`allow_checks_interruption` on a queue rule was removed: set it on a priority rule instead; this one is ignored.',
    deadline: '2025-02-14',
  },
  disallowChecksInterruptionFromQueues: {
    message: '`disallow_checks_interruption_from_queues` was removed and is ignored.',
    deadline: '2025-02-25',
  },
  requireBranchProtection: {
    message: '`require_branch_protection` was removed and is ignored.',
    deadline: '2023-11-22',
  },
  legacySpeculativeAliases: {
    message:
      'this 2022 spelling was removed: use `merge_queue.max_parallel_checks` and priority rules; it is ignored.',
    deadline: '2022-07-06',
  },
  queueActionOptions: {
    message:
      'options of the `queue` action other than `name` were removed: set them on the queue rule in `queue_rules`; this one is ignored.',
    deadline: '2024-10-21',
  },
  mergeActionStrict: {
    message: 'the `strict` mode of the `merge` action was removed: use a merge queue; it is ignored.',
    deadline: '2022-01-12',
  },
  commitMessageOption: {
    message:
      'the `commit_message` option of the merge and queue actions was removed: use `commit_message_format`; it is ignored.',
    deadline: '2022-04-25',
  },
  rebaseFallback: {
    message: 'the `rebase_fallback` option was removed and is ignored.',
    deadline: '2023-03-15',
  },
  mergeActionPriority: {
    message: 'the `priority` option of the `merge` action was removed: use `priority_rules`; it is ignored.',
    deadline: '2023-01-17',
  },
  mergeActionBotAccount: {
    message:
      '`bot_account` on the `merge` action is the old spelling of `merge_bot_account`: rename it. No removal date was published.',
    deadline: '2022-07-06',
  },
  githubActions: {
    message:
      'the `github_actions` action is deprecated: trigger the workflows with native GitHub events instead.',
    deadline: '2027-03-31',
  },
  postCheck: {
    message:
      'the `post_check` action is deprecated: use `merge_protections`. No removal date was published; it was deprecated on this date.',
    deadline: '2026-03-18',
  },
  deleteHeadBranch: {
    message:
      "the `delete_head_branch` action is deprecated: use GitHub's automatic deletion of head branches. No removal date was published; it was deprecated on this date.",
    deadline: '2026-03-30',
  },
  autoMerge: {
    message:
      '`auto_merge` is deprecated: use `auto_merge_conditions: true` (or a list of conditions). No removal date was published.',
    deadline: '2026-05-06',
  },
  partitionRules: {
    message:
      '`partition_rules` were removed: use `scopes` with `merge_queue.mode: parallel`. This section is ignored.',
    deadline: '2025-10-31',
  },
  statusAttributes: {
    message:
      'the `status-success`, `status-failure` and `status-neutral` attributes were replaced by `check-success`, `check-failure` and `check-neutral`, which also match commit statuses: rename them. No removal date was published; the documentation switched on this date.',
    deadline: '2023-10-25',
  },
  v1Rules: {
    message:
      'the top-level `rules` section is the Mergify v1 format (2018), which is no longer read: write `pull_request_rules` instead. This section is ignored.',
    deadline: '2018-12-31',
  },
} as const satisfies Record<string, Notice>;

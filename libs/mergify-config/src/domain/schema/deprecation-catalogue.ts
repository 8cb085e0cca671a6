import type { Deprecation, RemovalFacts } from './deprecation';

/**
 * One deprecated or removed form: `deadline` is what the spec's DeprecationInfo shows while it is a
 * deprecation; `removedOn` the removal date a source gives (past or future), null when none was
 * published; `stillAccepted` whether Mergify's schema of 2026-08 still has it; `source` where
 * these facts come from.
 */
type Notice = Omit<Deprecation, 'path' | 'removal'> & RemovalFacts;

/**
 * Deprecated and removed forms Switchyard recognizes (queue-semantics §8.2, Mergify's changelog and
 * its 2026-08 configuration schema). The verdict follows Mergify (see `isRemoved`): a form past its
 * removal date, or gone from the schema with no date published, is an error that says what
 * replaced it and when it was removed; a form still deprecated is listed in `deprecations`.
 */
export const DEPRECATIONS = {
  queueRuleConditions: {
    message: '`conditions` in a queue rule was replaced by `merge_conditions` (same meaning): rename it.',
    deadline: '2026-07-31',
    removedOn: '2026-07-31',
    stillAccepted: false,
    source:
      'Mergify changelog 2026-05-06 (conditions in queue rules is deprecated): removed on 2026-07-31; gone from the 2026-08 schema',
  },
  queueRuleRoutingConditions: {
    message:
      '`routing_conditions` in a queue rule was replaced by `queue_conditions` (same meaning): rename it.',
    deadline: '2026-07-31',
    removedOn: '2026-07-31',
    stillAccepted: false,
    source:
      'Mergify changelog 2026-05-06 (routing_conditions in queue rules is deprecated): removed on 2026-07-31; gone from the 2026-08 schema',
  },
  commitMessageTemplate: {
    message:
      '`commit_message_template` was replaced by `commit_message_format`: describe the commit message with it instead.',
    deadline: '2026-09-30',
    removedOn: '2026-09-30',
    stillAccepted: true,
    source:
      "Mergify's 2026-08 schema (configuration_deprecated_attribute): 'will be removed on 2026-09-30'; changelog 2026-07-08",
  },
  autoqueue: {
    message: '`autoqueue` is deprecated: use `merge_protections_settings.auto_merge_conditions` instead.',
    deadline: '2026-07-16',
    removedOn: null,
    stillAccepted: true,
    source:
      "Mergify's 2026-08 schema still has it (deprecated: true); the 2026-07-16 date of a 2026-04 schema (queue-semantics §8.2) was not kept",
  },
  allowInplaceChecks: {
    message:
      '`allow_inplace_checks` no longer has any effect (in-place checks are decided automatically); remove it. No removal date was published; it stopped applying on this date.',
    deadline: '2025-09-30',
    removedOn: null,
    stillAccepted: true,
    source: "Mergify's 2026-08 schema (deprecated: true); changelog 2025-09-30",
  },
  queueBranchMergeMethod: {
    message:
      '`queue_branch_merge_method` is deprecated: write `merge_method: fast-forward` instead. No removal date was published; it was deprecated on this date.',
    deadline: '2026-04-01',
    removedOn: null,
    stillAccepted: true,
    source: "Mergify's 2026-08 schema (deprecated: true); changelog 2026-04-01",
  },
  autosquash: {
    message: '`autosquash` is deprecated. No removal date was published; it was deprecated on this date.',
    deadline: '2026-01-27',
    removedOn: null,
    stillAccepted: true,
    source: "Mergify's 2026-08 schema (deprecated: true); changelog 2026-01-27",
  },
  speculativeChecks: {
    message:
      '`speculative_checks` in a queue rule was replaced by `merge_queue.max_parallel_checks`; it is ignored here. Move the value there.',
    deadline: '2024-09-23',
    removedOn: null,
    stillAccepted: false,
    source:
      "gone from Mergify's 2026-08 schema (queue-semantics §8.2: already removed); no removal date published",
  },
  queueRulePriorityRules: {
    message:
      '`priority_rules` inside a queue rule was removed: priority rules are a top-level section now; this one is ignored.',
    deadline: '2025-02-18',
    removedOn: null,
    stillAccepted: false,
    source: "gone from Mergify's 2026-08 schema; no removal date published",
  },
  queueRuleAllowChecksInterruption: {
    message:
      '`allow_checks_interruption` on a queue rule was removed: set it on a priority rule instead; this one is ignored.',
    deadline: '2025-02-14',
    removedOn: '2025-02-14',
    stillAccepted: false,
    source: 'Mergify changelog 2025-02-14 (remove deprecated allow_checks_interruption)',
  },
  disallowChecksInterruptionFromQueues: {
    message: '`disallow_checks_interruption_from_queues` was removed and is ignored.',
    deadline: '2025-02-25',
    removedOn: '2025-02-25',
    stillAccepted: false,
    source: 'Mergify changelog 2025-02-25 (disallow_checks_interruption_from_queues has been removed)',
  },
  requireBranchProtection: {
    message: '`require_branch_protection` was removed and is ignored.',
    deadline: '2023-11-22',
    removedOn: null,
    stillAccepted: false,
    source: "gone from Mergify's 2026-08 schema; no removal date published",
  },
  legacySpeculativeAliases: {
    message:
      'this 2022 spelling was removed: use `merge_queue.max_parallel_checks` and priority rules; it is ignored.',
    deadline: '2022-07-06',
    removedOn: null,
    stillAccepted: false,
    source: "gone from Mergify's 2026-08 schema; no removal date published",
  },
  queueActionOptions: {
    message:
      'options of the `queue` action other than `name` were removed: set them on the queue rule in `queue_rules`; this one is ignored.',
    deadline: '2024-10-21',
    removedOn: '2025-06-24',
    stillAccepted: false,
    source: 'Mergify changelog 2025-06-24 (remove deprecated options of queue action); deprecated 2024-07-26',
  },
  mergeActionStrict: {
    message: 'the `strict` mode of the `merge` action was removed: use a merge queue; it is ignored.',
    deadline: '2022-01-12',
    removedOn: '2022-01-12',
    stillAccepted: false,
    source: 'Mergify changelog 2022-01-12 (strict mode removed)',
  },
  commitMessageOption: {
    message:
      'the `commit_message` option of the merge and queue actions was removed: use `commit_message_format`; it is ignored.',
    deadline: '2022-04-25',
    removedOn: '2022-04-25',
    stillAccepted: false,
    source: 'Mergify changelog 2022-04-25 (commit_message removed)',
  },
  rebaseFallback: {
    message: 'the `rebase_fallback` option was removed and is ignored.',
    deadline: '2023-03-15',
    removedOn: null,
    stillAccepted: false,
    source:
      'Mergify changelog 2022-12-07 deprecated it; gone from the 2026-08 schema; no removal date published',
  },
  mergeActionPriority: {
    message: 'the `priority` option of the `merge` action was removed: use `priority_rules`; it is ignored.',
    deadline: '2023-01-17',
    removedOn: '2023-01-17',
    stillAccepted: false,
    source: "Mergify changelog 2022-12-15: 'will be removed on 2023-01-17'",
  },
  mergeActionBotAccount: {
    message:
      '`bot_account` on the `merge` action is the old spelling of `merge_bot_account`: rename it. No removal date was published.',
    deadline: '2022-07-06',
    removedOn: null,
    stillAccepted: false,
    source: "gone from Mergify's 2026-08 schema (merge action: merge_bot_account); no removal date published",
  },
  githubActions: {
    message:
      'the `github_actions` action is replaced by native GitHub events: trigger the workflows with them instead.',
    deadline: '2027-03-31',
    removedOn: '2027-03-31',
    stillAccepted: true,
    source: "Mergify's 2026-08 schema: 'will be removed on 2027-03-31'; changelog 2026-07-29",
  },
  postCheck: {
    message:
      'the `post_check` action is deprecated: use `merge_protections`. No removal date was published; it was deprecated on this date.',
    deadline: '2026-03-18',
    removedOn: null,
    stillAccepted: true,
    source: "Mergify's 2026-08 schema (deprecated: true); changelog 2026-03-18",
  },
  deleteHeadBranch: {
    message:
      "the `delete_head_branch` action is deprecated: use GitHub's automatic deletion of head branches. No removal date was published; it was deprecated on this date.",
    deadline: '2026-03-30',
    removedOn: null,
    stillAccepted: true,
    source: "Mergify's 2026-08 schema (deprecated: true); changelog 2026-03-30",
  },
  autoMerge: {
    message:
      '`auto_merge` is deprecated: use `auto_merge_conditions: true` (or a list of conditions). No removal date was published.',
    deadline: '2026-05-06',
    removedOn: null,
    stillAccepted: true,
    source: "Mergify's 2026-08 schema (deprecated: true)",
  },
  partitionRules: {
    message:
      '`partition_rules` were removed: use `scopes` with `merge_queue.mode: parallel`. This section is ignored.',
    deadline: '2025-10-31',
    removedOn: null,
    stillAccepted: true,
    source:
      "Mergify docs merge-queue/migrate-partitions-to-scopes: 'A file that still declares them is not rejected, but Mergify ignores the section' (the 2026-08 schema lacks it: a listed exception)",
  },
  statusAttributes: {
    message:
      'the `status-success`, `status-failure` and `status-neutral` attributes were replaced by `check-success`, `check-failure` and `check-neutral`, which also match commit statuses: rename them. No removal date was published; the documentation switched on this date.',
    deadline: '2023-10-25',
    removedOn: null,
    stillAccepted: true,
    source: 'a condition attribute, which the schema cannot see; no removal date published',
  },
  v1Rules: {
    message:
      'the top-level `rules` section is the Mergify v1 format (2018), which is no longer read: write `pull_request_rules` instead. This section is ignored.',
    deadline: '2018-12-31',
    removedOn: null,
    stillAccepted: false,
    source:
      "gone from Mergify's 2026-08 schema (additionalProperties: false at the root); no removal date published",
  },
} as const satisfies Record<string, Notice>;

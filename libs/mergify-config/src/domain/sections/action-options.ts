import { readConditions } from '../schema/conditions-field';
import { DEPRECATIONS } from '../schema/deprecation-catalogue';
import type { Deprecation } from '../schema/deprecation';
import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import type { ActionName } from '../schema/mergify-configuration';
import {
  booleanReader,
  describeType,
  enumReader,
  integerReader,
  isMapping,
  listReader,
  nullable,
  type Reader,
  readInteger,
  readList,
  readMapping,
  refuseUnknownKeys,
  keys,
  stringReader,
} from '../schema/readers';

interface OptionSpec {
  read: Reader<unknown>;
  fallback: unknown;
}

/** The options of one action: current keys with their defaults, legacy keys that are ignored, renamed keys. */
interface ActionSpec {
  options: Record<string, OptionSpec>;
  ignoredLegacy?: Record<string, Omit<Deprecation, 'path'>>;
  renamed?: Record<string, { to: string; notice: Omit<Deprecation, 'path'> }>;
  deprecated?: Omit<Deprecation, 'path'>;
  deprecatedOptions?: Record<string, Omit<Deprecation, 'path'>>;
}

const opt = (read: Reader<unknown>, fallback: unknown): OptionSpec => ({ read, fallback });
const text = nullable(stringReader);
const strings = (maxItems: number) => listReader(stringReader, { maxItems });
const reportMode = listReader(enumReader(['check', 'comment'] as const), { minItems: 1 });

const copyLike = (kind: 'backport' | 'copy'): ActionSpec => ({
  options: {
    bot_account: opt(text, null),
    branches: opt(strings(30), []),
    regexes: opt(strings(30), []),
    ignore_conflicts: opt(booleanReader, true),
    assignees: opt(strings(10), []),
    labels: opt(strings(30), []),
    label_conflicts: opt(stringReader, 'conflicts'),
    title: opt(stringReader, `{{ title }} (${kind} #{{ number }})`),
    body: opt(stringReader, `{{ body }}\n\n---\nAutomatic ${kind} of #{{ number }}.`),
    report_mode: opt(reportMode, ['check']),
    merge_conflict_style: opt(enumReader(['merge', 'diff3'] as const), 'merge'),
  },
});

const readDismissTarget: Reader<unknown> = (value, at) => {
  if (typeof value === 'boolean' || value === 'from_requested_reviewers') return value;
  if (Array.isArray(value)) return readList(value, at, stringReader, { maxItems: 50 });
  return at.fail(
    `expected true, false, 'from_requested_reviewers' or a list of logins, got ${describeType(value)}`,
  );
};

/** Reviewers as a list, or a map of reviewer → weight 1..65535 for random picks. */
const readReviewers: Reader<unknown> = (value, at) => {
  if (Array.isArray(value)) return readList(value, at, stringReader, { maxItems: 150 });
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  let valid = true;
  for (const [name, weight] of Object.entries(mapping))
    if (readInteger(weight, at.at(name), { min: 1, max: 65_535 }) === INVALID) valid = false;
  return valid ? mapping : INVALID;
};

const readWorkflow: Reader<unknown> = (value, at) => {
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  refuseUnknownKeys(mapping, at, keys('dispatch'));
  if (mapping.dispatch === undefined) return mapping;
  const dispatch = readList(mapping.dispatch, at.at('dispatch'), readDispatch, { maxItems: 10 });
  return dispatch === INVALID ? INVALID : { dispatch };
};

const readDispatch: Reader<unknown> = (value, at) => {
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  refuseUnknownKeys(mapping, at, keys('workflow', 'ref', 'inputs'));
  if (typeof mapping.workflow !== 'string') at.at('workflow').fail('expected the workflow file name');
  if (mapping.ref !== undefined && mapping.ref !== null && typeof mapping.ref !== 'string')
    at.at('ref').fail('expected a string or null');
  if (mapping.inputs !== undefined) {
    if (!isMapping(mapping.inputs)) at.at('inputs').fail('expected a mapping of input names to values');
    else
      for (const [name, input] of Object.entries(mapping.inputs))
        if (
          !['string', 'boolean', 'number'].includes(typeof input) ||
          (typeof input === 'number' && !Number.isInteger(input))
        )
          at.at('inputs').at(name).fail('expected a string, an integer or a boolean');
  }
  return at.findings.problems.length > before ? INVALID : mapping;
};

const readOptionalConditions: Reader<unknown> = (value, at) =>
  value === null ? null : readConditions(value, at);

/** Removed options that are ignored still had a type; a value that never was valid is an error. */
const LEGACY_OPTION_VALUES: Record<string, Reader<unknown>> = {
  rebase_fallback: nullable(enumReader(['merge', 'squash', 'none'] as const)),
  strict: (value, at) =>
    typeof value === 'boolean' ||
    value === 'smart' ||
    value === 'smart+fasttrack' ||
    value === 'smart+ordered' ||
    value === 'smart+fastpath'
      ? value
      : at.fail(`expected true, false or 'smart', got ${describeType(value)}`),
  strict_method: enumReader(['merge', 'rebase', 'squash'] as const),
};

const QUEUE_ACTION_LEGACY_OPTIONS = [
  'method',
  'rebase_fallback',
  'merge_bot_account',
  'update_bot_account',
  'update_method',
  'commit_message',
  'commit_message_template',
  'priority',
  'require_branch_protection',
  'draft_bot_account',
  'allow_merging_configuration_change',
];

export const ACTION_SPECS: Record<ActionName, ActionSpec> = {
  assign: {
    options: {
      users: opt(strings(10), []),
      add_users: opt(strings(10), []),
      remove_users: opt(strings(40), []),
    },
  },
  backport: copyLike('backport'),
  close: { options: { message: opt(stringReader, 'This pull request was closed by a Switchyard rule.') } },
  comment: { options: { message: opt(text, null), bot_account: opt(text, null) } },
  copy: copyLike('copy'),
  delete_head_branch: {
    options: { force: opt(booleanReader, false) },
    deprecated: DEPRECATIONS.deleteHeadBranch,
  },
  dismiss_reviews: {
    options: {
      approved: opt(readDismissTarget, true),
      changes_requested: opt(readDismissTarget, true),
      message: opt(text, null),
      when: opt(enumReader(['synchronize', 'always'] as const), 'synchronize'),
    },
  },
  edit: { options: { bot_account: opt(text, null), draft: opt(nullable(booleanReader), null) } },
  github_actions: { options: { workflow: opt(readWorkflow, {}) }, deprecated: DEPRECATIONS.githubActions },
  label: {
    options: {
      add: opt(strings(50), []),
      remove: opt(strings(50), []),
      remove_all: opt(booleanReader, false),
      toggle: opt(strings(50), []),
    },
  },
  merge: {
    options: {
      method: opt(nullable(enumReader(['merge', 'rebase', 'squash', 'fast-forward'] as const)), null),
      merge_bot_account: opt(text, null),
      commit_message_template: opt(text, null),
      commit_message_format: opt(nullable(readMergeCommitMessageFormat()), null),
    },
    deprecatedOptions: { commit_message_template: DEPRECATIONS.commitMessageTemplate },
    ignoredLegacy: {
      strict: DEPRECATIONS.mergeActionStrict,
      strict_method: DEPRECATIONS.mergeActionStrict,
      rebase_fallback: DEPRECATIONS.rebaseFallback,
      commit_message: DEPRECATIONS.commitMessageOption,
      priority: DEPRECATIONS.mergeActionPriority,
    },
    renamed: { bot_account: { to: 'merge_bot_account', notice: DEPRECATIONS.mergeActionBotAccount } },
  },
  post_check: {
    options: {
      title: opt(stringReader, "'{{ check_rule_name }}' {{ check_status }}"),
      summary: opt(stringReader, '{{ check_conditions }}'),
      success_conditions: opt(readOptionalConditions, null),
      neutral_conditions: opt(readOptionalConditions, null),
    },
    deprecated: DEPRECATIONS.postCheck,
  },
  queue: {
    options: { name: opt(text, null) },
    ignoredLegacy: Object.fromEntries(
      QUEUE_ACTION_LEGACY_OPTIONS.map((key) => [
        key,
        key === 'commit_message'
          ? DEPRECATIONS.commitMessageOption
          : key === 'rebase_fallback'
            ? DEPRECATIONS.rebaseFallback
            : DEPRECATIONS.queueActionOptions,
      ]),
    ),
  },
  rebase: {
    options: { bot_account: opt(text, null), autosquash: opt(booleanReader, false) },
    deprecatedOptions: { autosquash: DEPRECATIONS.autosquash },
  },
  request_reviews: {
    options: {
      bot_account: opt(text, null),
      random_count: opt(nullable(integerReader({ min: 1, max: 15 })), null),
      users: opt(readReviewers, []),
      teams: opt(readReviewers, []),
      users_from_teams: opt(readReviewers, []),
    },
  },
  review: {
    options: {
      type: opt(enumReader(['APPROVE', 'REQUEST_CHANGES', 'COMMENT'] as const), 'APPROVE'),
      message: opt(text, null),
      bot_account: opt(text, null),
    },
  },
  squash: {
    options: {
      bot_account: opt(text, null),
      commit_message: opt(enumReader(['all-commits', 'first-commit', 'title+body'] as const), 'all-commits'),
    },
  },
  update: { options: { bot_account: opt(text, null) } },
};

function readMergeCommitMessageFormat(): Reader<unknown> {
  return (value, at) => {
    const mapping = readMapping(value, at);
    if (mapping === INVALID) return INVALID;
    const before = at.findings.problems.length;
    refuseUnknownKeys(mapping, at, keys('title', 'body', 'trailers'));
    const title =
      mapping.title === undefined
        ? 'inherit'
        : enumReader(['inherit', 'pr-title'] as const)(mapping.title, at.at('title'));
    const body =
      mapping.body === undefined
        ? 'inherit'
        : enumReader(['inherit', 'pr-body', 'empty'] as const)(mapping.body, at.at('body'));
    const trailers =
      mapping.trailers === undefined
        ? []
        : readList(
            mapping.trailers,
            at.at('trailers'),
            enumReader(['co-authored-by', 'approved-by', 'merged-by'] as const),
          );
    return at.findings.problems.length > before ? INVALID : { title, body, trailers };
  };
}

/**
 * Reads one action's options as written (no defaults yet): current keys validated, legacy keys
 * reported and dropped, renamed keys moved to their new name.
 */
export function readActionOptions(
  action: ActionName,
  value: unknown,
  at: Cursor,
): Record<string, unknown> | Invalid {
  const spec = ACTION_SPECS[action];
  if (spec.deprecated) at.deprecated(spec.deprecated);
  if (value === null) return {};
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  const options: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(mapping)) {
    const keyAt = at.at(key);
    const legacy = spec.ignoredLegacy?.[key];
    if (legacy) {
      keyAt.deprecated(legacy);
      const check = LEGACY_OPTION_VALUES[key];
      if (check) check(raw, keyAt);
      continue;
    }
    const rename = spec.renamed?.[key];
    const target = rename ? rename.to : key;
    const option = spec.options[target];
    if (!option) {
      keyAt.fail(`unknown option '${key}' for the ${action} action`);
      continue;
    }
    if (rename) {
      if (mapping[rename.to] !== undefined) {
        keyAt.fail(
          `'${key}' and '${rename.to}' cannot both be set: '${key}' is the old name of '${rename.to}'`,
        );
        continue;
      }
      keyAt.deprecated(rename.notice);
    }
    const deprecatedOption = spec.deprecatedOptions?.[key];
    if (deprecatedOption && raw !== null && raw !== false) keyAt.deprecated(deprecatedOption);
    const read = option.read(raw, keyAt);
    if (read !== INVALID) options[target] = read;
  }
  return at.findings.problems.length > before ? INVALID : options;
}

/** The options with every default filled in: rule's own, then `defaults.actions`, then built-in. */
export function withActionDefaults(
  action: ActionName,
  own: Record<string, unknown>,
  defaults: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(ACTION_SPECS[action].options)) {
    if (own[key] !== undefined) options[key] = own[key];
    else if (defaults?.[key] !== undefined) options[key] = defaults[key];
    else options[key] = spec.fallback;
  }
  return options;
}

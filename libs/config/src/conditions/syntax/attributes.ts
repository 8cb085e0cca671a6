import type { Operator } from './operators';

/**
 * The attributes a condition may name, with what each accepts (queue-semantics §5.2, Mergify's
 * configuration schema `PullRequestAttributes`: `x-allowed-operators` and `x-modifiers`).
 *
 * `family` says what kind of value the attribute holds, which decides how a value is parsed and
 * compared:
 * - `boolean`: no operator (`draft`, `-closed`);
 * - `text` / `text-list`: one string (possibly null) or a list of strings; lists match when any
 *   element does, `!=` when none does;
 * - `number`: an integer (`number`, `queue-position`);
 * - `count`: a list only usable as `#name` (`#commits-behind`, `#added-lines`);
 * - `timestamp`: an instant, compared with `>= <= < >` against an ISO time or "N days ago";
 * - `current-datetime`, `schedule`: the evaluation time itself;
 * - `permission`: `sender-permission`, ordered none < read < triage < write < maintain < admin.
 *
 * Operators and modifiers are those of the schema's `x-allowed-operators` and `x-modifiers`, with
 * two readings the schema leaves open: `added-lines`, `modified-lines` and `deleted-lines` list
 * every operator but their description says "only usable as `#added-lines`", so `#` stays required;
 * and `#sender-permission` is the permission itself, as Mergify's engine read it (its parser
 * dropped the `#` for permissions), since a permission has no length.
 */
export type AttributeFamily =
  | 'boolean'
  | 'text'
  | 'text-list'
  | 'number'
  | 'count'
  | 'timestamp'
  | 'current-datetime'
  | 'schedule'
  | 'permission';

/** What a value written against the attribute designates, beyond plain text. */
export type ValueMeaning = 'plain' | 'login' | 'check' | 'dequeue-reason';

export interface AttributeSpec {
  family: AttributeFamily;
  operators: readonly Operator[];
  negatable: boolean;
  /** `#` modifier; `ignored`: allowed, and the condition reads the same without it. */
  length: 'forbidden' | 'optional' | 'required' | 'ignored';
  meaning: ValueMeaning;
  /** Only meaningful in a given section (`sender` in commands_restrictions). */
  availability?: 'commands-restrictions';
}

const ALL: readonly Operator[] = ['=', '!=', '~=', '>=', '<=', '<', '>', '*='];
const NO_GLOB: readonly Operator[] = ['=', '!=', '~=', '>=', '<=', '<', '>'];
const ORDERED: readonly Operator[] = ['=', '!=', '>=', '<=', '<', '>'];
const TIME: readonly Operator[] = ['>=', '<=', '<', '>'];
const EQUALITY_OR_REGEX: readonly Operator[] = ['=', '!=', '~='];

const bool = (): AttributeSpec => ({
  family: 'boolean',
  operators: [],
  negatable: true,
  length: 'forbidden',
  meaning: 'plain',
});
const text = (meaning: ValueMeaning = 'plain', operators = ALL): AttributeSpec => ({
  family: 'text',
  operators,
  negatable: true,
  length: 'optional',
  meaning,
});
const list = (meaning: ValueMeaning = 'plain'): AttributeSpec => ({
  family: 'text-list',
  operators: ALL,
  negatable: true,
  length: 'optional',
  meaning,
});
const count = (): AttributeSpec => ({
  family: 'count',
  operators: ORDERED,
  negatable: true,
  length: 'required',
  meaning: 'plain',
});
const instant = (): AttributeSpec => ({
  family: 'timestamp',
  operators: TIME,
  negatable: false,
  length: 'forbidden',
  meaning: 'plain',
});

export const ATTRIBUTES: Readonly<Record<string, AttributeSpec>> = {
  // Booleans.
  draft: bool(),
  merged: bool(),
  closed: bool(),
  locked: bool(),
  conflict: bool(),
  'linear-history': bool(),
  'from-fork': bool(),
  'mergify-configuration-changed': bool(),

  // Numbers.
  number: { family: 'number', operators: ORDERED, negatable: true, length: 'forbidden', meaning: 'plain' },
  'queue-position': {
    family: 'number',
    operators: ORDERED,
    negatable: true,
    length: 'forbidden',
    meaning: 'plain',
  },

  // Single text values.
  author: text('login'),
  'merged-by': text('login'),
  'merge-commit-sha': text(),
  milestone: text('plain', NO_GLOB),
  base: text(),
  head: text(),
  'head-repo-full-name': text(),
  title: text(),
  body: text(),
  'body-raw': text(),
  'repository-name': text(),
  'repository-full-name': text(),
  'queue-name': text(),
  'queue-dequeue-reason': text('dequeue-reason', EQUALITY_OR_REGEX),
  'github-review-decision': text('plain', EQUALITY_OR_REGEX),
  sender: { ...text('login'), availability: 'commands-restrictions' },
  'sender-permission': {
    family: 'permission',
    operators: ORDERED,
    negatable: true,
    length: 'ignored',
    meaning: 'plain',
    availability: 'commands-restrictions',
  },

  // Lists of text.
  assignee: list('login'),
  label: list(),
  'review-requested': list('login'),
  'approved-reviews-by': list('login'),
  'dismissed-reviews-by': list('login'),
  'changes-requested-reviews-by': list('login'),
  'commented-reviews-by': list('login'),
  check: list('check'),
  'check-success': list('check'),
  'check-success-or-neutral': list('check'),
  'check-failure': list('check'),
  'check-neutral': list('check'),
  'check-timed-out': list('check'),
  'check-skipped': list('check'),
  'check-cancelled': list('check'),
  'check-pending': list('check'),
  'check-stale': list('check'),
  'commits-unverified': list(),
  'deployment-success': list(),
  'deployment-failure': list(),
  'review-threads-resolved': list(),
  'review-threads-unresolved': list(),
  files: list(),
  'added-files': list(),
  'modified-files': list(),
  'removed-files': list(),
  'depends-on': list(),
  'dependabot-dependency-name': list(),
  'dependabot-dependency-type': list(),
  'dependabot-update-type': list(),
  scope: list(),

  // Lists only counted.
  'commits-behind': count(),
  'added-lines': count(),
  'modified-lines': count(),
  'deleted-lines': count(),
  'co-authors': count(),
  // Each update reads as its head SHA; each commit as its message (Mergify's commits are
  // "string-like": their text is the commit message). `#updates` and `#commits` count them.
  updates: list(),
  commits: list(),

  // Time.
  'created-at': instant(),
  'updated-at': instant(),
  'closed-at': instant(),
  'merged-at': instant(),
  'queued-at': instant(),
  'queue-merge-started-at': instant(),
  'current-datetime': {
    family: 'current-datetime',
    operators: ORDERED,
    negatable: false,
    length: 'forbidden',
    meaning: 'plain',
  },
  schedule: {
    family: 'schedule',
    operators: ['=', '!='],
    negatable: false,
    length: 'forbidden',
    meaning: 'plain',
  },
};

/** Names Mergify used to accept, with why they are refused now. */
export const RETIRED_ATTRIBUTES: Readonly<Record<string, string>> = {
  'queue-frozen': 'it was removed on 2025-02-25; scheduled freezes replace queue freezes',
  'queue-freeze-reason': 'it was removed on 2025-02-25; scheduled freezes replace queue freezes',
  'partition-name': 'partitions were replaced by scopes; use `scope`',
  'current-partition-name': 'partitions were replaced by scopes; use `scope`',
  'status-success': 'it was replaced by `check-success`',
  'status-failure': 'it was replaced by `check-failure`',
  'status-neutral': 'it was replaced by `check-neutral`',
  'current-time': 'it was replaced by `schedule` and `current-datetime`',
  'current-day': 'it was replaced by `schedule` and `current-datetime`',
  'current-month': 'it was replaced by `schedule` and `current-datetime`',
  'current-year': 'it was replaced by `schedule` and `current-datetime`',
  'current-day-of-week': 'it was replaced by `schedule`',
  'current-timestamp': 'it was replaced by `current-datetime`',
};

/** GitHub-derived attributes: shown in reports, evaluated by Mergify itself, never written by users. */
export const INTERNAL_ATTRIBUTES: readonly string[] = [
  'github-require-review-from-specific-teams',
  'github-code-owner-review-satisfied',
  'github-review-approved',
  'github-require-last-push-approval',
];

/** Fields addressable as `commits[i].<field>`, with the family of each. */
export const COMMIT_FIELDS: Readonly<Record<string, AttributeSpec>> = {
  author: text('login'),
  committer: text('login'),
  commit_message: text(),
  email_author: text(),
  email_committer: text(),
  date_author: instant(),
  date_committer: instant(),
  // A field of a commit object, so it may also be compared with `= true` / `!= false`.
  commit_verification_verified: { ...bool(), operators: ['=', '!='] },
};

/** Every name a condition may start with, longest first, so `merged-at` wins over `merged`. */
export const ATTRIBUTE_NAMES_LONGEST_FIRST: readonly string[] = [
  ...Object.keys(ATTRIBUTES),
  ...Object.keys(RETIRED_ATTRIBUTES),
  ...INTERNAL_ATTRIBUTES,
].sort((a, b) => b.length - a.length);

export const SENDER_PERMISSIONS = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;
export type SenderPermission = (typeof SENDER_PERMISSIONS)[number];

/** The codes `queue-dequeue-reason` can hold (written kebab-case in conditions): Mergify's list, kept in the kernel. */
export { DEQUEUE_REASONS } from '@switchyard/kernel';

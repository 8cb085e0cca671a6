import type { AttributeFamily, SenderPermission } from './syntax/attributes';
import type { Operator } from './syntax/operators';
import type { DateTimeInterval } from './syntax/values/datetime-interval';
import type { Schedule } from './syntax/values/schedule';

/**
 * A parsed condition: what `parseConditions` returns and `evaluateConditions` reads. Plain data
 * (no compiled regexes or closures), so it can be logged, compared in tests and carried around.
 */
export type ConditionNode = ConditionGroup | ConditionLeaf;

/** A step of a path inside a configuration: a key or a list index. */
export type PathStep = string | number;

export interface ConditionGroup {
  kind: 'and' | 'or' | 'not';
  /** `all of`, `any of` or `not`, as reports print it. */
  label: string;
  /** A top-level list (implicit and) or `true` rather than a written `and:` block. */
  implicit: boolean;
  /** `not` has exactly one child. */
  children: ConditionNode[];
  location: PathStep[];
}

export interface ConditionLeaf {
  kind: 'leaf';
  /** The condition as written (trimmed): the label reports show. */
  label: string;
  location: PathStep[];
  /** `-` prefix. */
  negated: boolean;
  /** `#` prefix: the condition compares the attribute's length. */
  length: boolean;
  attribute: string;
  family: AttributeFamily;
  /** `commits[i].field`: which commits and which field; null for every other attribute. */
  commit: CommitSelector | null;
  /** null for Boolean attributes used on their own. */
  operator: Operator | null;
  value: LeafValue;
}

export interface CommitSelector {
  /** A position (0 = first, -1 = last) or `*` for any commit. */
  index: number | '*';
  field: string;
}

export type LeafValue =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  /** `{{ author }}`: the pull request author's login. */
  | { kind: 'author' }
  /** `@org/team` (org null for `@team`, which means the repository owner's team). */
  | { kind: 'team'; org: string | null; slug: string }
  /** `@app-slug/name`: a check bound to one GitHub App. */
  | { kind: 'qualified-check'; app: string; name: string }
  | { kind: 'regex'; source: string; flags: string }
  | { kind: 'glob'; pattern: string }
  | { kind: 'integer'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'permission'; permission: SenderPermission }
  | { kind: 'dequeue-reason'; code: string }
  /** An absolute instant (RFC 3339, UTC). */
  | { kind: 'instant'; iso: string }
  /** "N days N hours N minutes ago": now minus this many milliseconds. */
  | { kind: 'relative'; milliseconds: number }
  | { kind: 'schedule'; schedule: Schedule }
  | { kind: 'interval'; interval: DateTimeInterval };

/** One problem in a condition, located in the configuration. */
export interface ConditionError {
  /** `queue_rules[0].merge_conditions[2].and[1]` */
  path: string;
  /** The same path as steps, to find the YAML node (and its line). */
  location: PathStep[];
  /** `Invalid condition '<text>'. <detail>` or a structural message. */
  message: string;
}

/** `queue_rules[0].merge_conditions[2]` from its steps. */
export function formatPath(location: readonly PathStep[]): string {
  return location
    .map((step, index) => (typeof step === 'number' ? `[${step}]` : index === 0 ? step : `.${step}`))
    .join('');
}

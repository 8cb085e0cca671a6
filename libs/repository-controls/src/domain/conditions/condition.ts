/**
 * A condition as users write it in freezes (and, later, in .mergify.yml): a leaf string such as
 * `base=main`, or a group. A top-level list is an implicit AND (queue-semantics §5.1).
 */
export type Condition = string | ConditionGroup;

export type ConditionGroup = { and: Condition[] } | { or: Condition[] } | { not: Condition };

export const isAndGroup = (condition: ConditionGroup): condition is { and: Condition[] } =>
  'and' in condition;
export const isOrGroup = (condition: ConditionGroup): condition is { or: Condition[] } => 'or' in condition;

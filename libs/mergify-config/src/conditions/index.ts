// The condition language (queue-semantics §5): parse, evaluate, report.
export * from './condition-tree';
export {
  parseConditions,
  parsePath,
  MAX_CONDITIONS_PER_LIST,
  MAX_CONDITION_NESTING,
} from './syntax/parse-conditions';
export type { ConditionsParse } from './syntax/parse-conditions';
export { parseConditionLeaf } from './syntax/parse-leaf';
export type { LeafParse } from './syntax/parse-leaf';
export { ATTRIBUTES, COMMIT_FIELDS, DEQUEUE_REASONS, SENDER_PERMISSIONS } from './syntax/attributes';
export type { AttributeFamily, AttributeSpec, SenderPermission } from './syntax/attributes';
export type { Operator } from './syntax/operators';
export type { Schedule, TimeOfDay, TimeRange } from './syntax/values/schedule';
export type { DateTimeInterval, WildDateTime } from './syntax/values/datetime-interval';
export * from './evaluation';
export { pullRequestSnapshotFixture } from './testing/pull-request-snapshot.fixture';

import { ALWAYS, readConditions } from '../schema/conditions-field';
import { DEPRECATIONS } from '../schema/deprecation-catalogue';
import { type Cursor, INVALID, type Invalid } from '../schema/findings';
import type {
  MergeProtectionRuleConfiguration,
  MergeProtectionsSettings,
} from '../schema/mergify-configuration';
import {
  anyInvalid,
  booleanReader,
  enumReader,
  field,
  keys,
  nullable,
  readMapping,
  refuseUnknownKeys,
  requiredField,
  stringReader,
} from '../schema/readers';

export const MAX_MERGE_PROTECTIONS = 100;

const RULE_KEYS = keys('name', 'if', 'success_conditions', 'description');

/** `merge_protections`: named rules, each `if` → `success_conditions`. */
export function readMergeProtections(
  value: unknown,
  at: Cursor,
): MergeProtectionRuleConfiguration[] | Invalid {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return at.fail('expected a list of merge protection rules');
  if (value.length > MAX_MERGE_PROTECTIONS)
    return at.fail(`must have at most ${MAX_MERGE_PROTECTIONS} rules, got ${value.length}`);
  const rules: MergeProtectionRuleConfiguration[] = [];
  let valid = true;
  value.forEach((item, index) => {
    const ruleAt = at.at(index);
    const mapping = readMapping(item, ruleAt);
    if (mapping === INVALID) {
      valid = false;
      return;
    }
    const before = ruleAt.findings.problems.length;
    refuseUnknownKeys(mapping, ruleAt, RULE_KEYS);
    const name = requiredField(mapping, ruleAt, 'name', stringReader);
    const condition = requiredField(mapping, ruleAt, 'if', readConditions);
    const successConditions = requiredField(mapping, ruleAt, 'success_conditions', readConditions);
    const description = field(mapping, ruleAt, 'description', nullable(stringReader), null);
    if (
      anyInvalid(name, condition, successConditions, description) ||
      ruleAt.findings.problems.length > before
    ) {
      valid = false;
      return;
    }
    rules.push({ name, if: condition, successConditions, description } as MergeProtectionRuleConfiguration);
  });
  return valid ? rules : INVALID;
}

export const DEFAULT_MERGE_PROTECTIONS_SETTINGS: MergeProtectionsSettings = {
  reportingMethod: 'check-runs',
  postComment: true,
  autoMergeConditions: null,
};

/** `merge_protections_settings`; the deprecated `auto_merge: true` means `auto_merge_conditions: true`. */
export function readMergeProtectionsSettings(value: unknown, at: Cursor): MergeProtectionsSettings | Invalid {
  if (value === undefined || value === null) return DEFAULT_MERGE_PROTECTIONS_SETTINGS;
  const mapping = readMapping(value, at);
  if (mapping === INVALID) return INVALID;
  const before = at.findings.problems.length;
  refuseUnknownKeys(
    mapping,
    at,
    keys('reporting_method', 'post_comment', 'auto_merge', 'auto_merge_conditions'),
  );
  const d = DEFAULT_MERGE_PROTECTIONS_SETTINGS;
  const reportingMethod = field(
    mapping,
    at,
    'reporting_method',
    enumReader(['check-runs', 'deployments'] as const),
    d.reportingMethod,
  );
  const postComment = field(mapping, at, 'post_comment', booleanReader, d.postComment);
  const autoMerge = field(mapping, at, 'auto_merge', booleanReader, false);
  const autoMergeConditions = field(
    mapping,
    at,
    'auto_merge_conditions',
    readAutoMergeConditions,
    d.autoMergeConditions,
  );
  if (
    anyInvalid(reportingMethod, postComment, autoMerge, autoMergeConditions) ||
    at.findings.problems.length > before
  )
    return INVALID;
  if (mapping.auto_merge !== undefined) at.at('auto_merge').deprecated(DEPRECATIONS.autoMerge);
  if (autoMerge === true && autoMergeConditions !== null)
    return at.at('auto_merge').fail('auto_merge and auto_merge_conditions cannot both be set');
  return {
    reportingMethod,
    postComment,
    autoMergeConditions: autoMerge === true ? ALWAYS : autoMergeConditions,
  } as MergeProtectionsSettings;
}

/** `true`, a list, or null; `false` and mappings are refused (queue-semantics §1.8). */
function readAutoMergeConditions(value: unknown, at: Cursor) {
  if (value === false)
    return at.fail('expected true, a list of conditions or null (false is not accepted: omit the key)');
  return value === null ? null : readConditions(value, at);
}

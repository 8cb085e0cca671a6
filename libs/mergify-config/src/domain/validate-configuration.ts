import { type ConfigurationNotice } from './schema/configuration-notice';
import type { ConfiguredConditions } from './schema/conditions-field';
import { type Deprecation, isRemoved, removalMessage } from './schema/deprecation';
import { DEPRECATIONS } from './schema/deprecation-catalogue';
import { Cursor, Findings, INVALID } from './schema/findings';
import type { MergifyConfiguration } from './schema/mergify-configuration';
import { isMapping, keys, refuseUnknownKeys } from './schema/readers';
import { readCommandsRestrictions } from './sections/commands-restrictions';
import { readDefaults } from './sections/defaults';
import { readMergeProtections, readMergeProtectionsSettings } from './sections/merge-protections';
import { DEFAULT_MERGE_QUEUE, readMergeQueue } from './sections/merge-queue';
import { readPriorityRules } from './sections/priority-rules';
import { readPullRequestRules } from './sections/pull-request-rules';
import { readQueueRules } from './sections/queue-rules';
import { readScopes } from './sections/scopes';
import { type PathSegment, pathText } from './source/configuration-path';
import { parseConfigurationText } from './source/parse-configuration-text';
import type { Locator } from './source/locator';
import type { SourcePosition } from './source/source-position';

/** A deprecation with its place in the text. */
export interface LocatedDeprecation extends Deprecation {
  position: SourcePosition | null;
}

export type ConfigurationValidation =
  | {
      valid: true;
      configuration: MergifyConfiguration;
      deprecations: LocatedDeprecation[];
      /** Parts Switchyard reads but cannot act on (such as `extends`), said plainly. */
      unapplied: ConfigurationNotice[];
    }
  | { valid: false; errors: ConfigurationNotice[] };

const TOP_LEVEL_KEYS = keys(
  'pull_request_rules',
  'queue_rules',
  'merge_queue',
  'priority_rules',
  'scopes',
  'merge_protections',
  'merge_protections_settings',
  'commands_restrictions',
  'defaults',
  'shared',
  'extends',
);
const LEGACY_TOP_LEVEL_KEYS = keys('partition_rules', 'rules');

/**
 * Parses and validates a `.mergify.yml` text (queue-semantics §1): every section, every key, with
 * defaults applied. The verdict is Mergify's on the day `asOf` falls on (UTC): a deprecated form
 * past its removal date is an error there (see `isRemoved`). Pure: the same text and day always
 * give the same answer.
 */
export function validateConfiguration(text: string, asOf: Date): ConfigurationValidation {
  const parsed = parseConfigurationText(text);
  if (!parsed.ok) {
    return {
      valid: false,
      errors: parsed.problems.map((problem) => ({
        path: [],
        pathText: '(root)',
        position: problem.position,
        message: `Invalid YAML: ${problem.message}`,
      })),
    };
  }
  const findings = new Findings();
  const root = new Cursor(findings);
  const unapplied: Array<{ path: PathSegment[]; message: string }> = [];
  const configuration = readRoot(parsed.value, root, unapplied);
  // Mergify reads an empty file, or one of comments only, as an empty configuration.
  if (parsed.value === null || parsed.value === undefined)
    unapplied.push({ path: [], message: 'the file holds no settings: it is read as an empty configuration' });
  const locate = (path: readonly PathSegment[]) => parsed.locator.locate(path);
  const today = asOf.toISOString().slice(0, 10);
  for (const deprecation of findings.deprecations)
    if (isRemoved(deprecation.removal, today))
      findings.problems.push({ path: deprecation.path ?? [], message: removalMessage(deprecation) });
  if (configuration === INVALID || findings.problems.length > 0) {
    return {
      valid: false,
      errors: sortByPosition(findings.problems.map((p) => notice(p.path, p.message, parsed.locator))),
    };
  }
  return {
    valid: true,
    configuration,
    deprecations: findings.deprecations.map((d) => ({ ...d, position: d.path ? locate(d.path) : null })),
    unapplied: unapplied.map((u) => notice(u.path, u.message, parsed.locator)),
  };
}

function readRoot(
  value: unknown,
  at: Cursor,
  unapplied: Array<{ path: PathSegment[]; message: string }>,
): MergifyConfiguration | typeof INVALID {
  // An empty file (or one of comments only) is an empty configuration.
  const document = value === null || value === undefined ? {} : value;
  if (!isMapping(document)) return at.fail('the configuration must be a mapping of sections');
  refuseUnknownKeys(document, at, TOP_LEVEL_KEYS, LEGACY_TOP_LEVEL_KEYS);
  if (document.partition_rules !== undefined)
    at.at('partition_rules').deprecated(DEPRECATIONS.partitionRules);
  if (document.rules !== undefined) at.at('rules').deprecated(DEPRECATIONS.v1Rules);
  if (document.shared !== undefined && document.shared !== null && !isMapping(document.shared))
    at.at('shared').fail('expected a mapping (a place for YAML anchors) or null');
  readExtends(document.extends, at.at('extends'), unapplied);

  const mergeQueue = readMergeQueue(document.merge_queue, at.at('merge_queue'));
  const defaults = readDefaults(document.defaults, at.at('defaults'));
  // A broken merge_queue still lets the rest be checked against the default one, so every
  // error is reported at once.
  const mergeQueueOrDefault = mergeQueue === INVALID ? DEFAULT_MERGE_QUEUE : mergeQueue;
  const queueRules =
    defaults === INVALID
      ? INVALID
      : document.queue_rules === undefined
        ? []
        : readQueueRules(document.queue_rules, at.at('queue_rules'), defaults.queueRule, mergeQueueOrDefault);
  const priorityRules = readPriorityRules(document.priority_rules, at.at('priority_rules'));
  const scopes = readScopes(document.scopes, at.at('scopes'), mergeQueueOrDefault);
  const mergeProtections = readMergeProtections(document.merge_protections, at.at('merge_protections'));
  const mergeProtectionsSettings = readMergeProtectionsSettings(
    document.merge_protections_settings,
    at.at('merge_protections_settings'),
  );
  const commandsRestrictions = readCommandsRestrictions(
    document.commands_restrictions,
    at.at('commands_restrictions'),
  );
  // Broken queue rules still name themselves, so the pull request rules are checked too.
  const queueRuleNames = new Set(
    queueRules === INVALID
      ? writtenQueueRuleNames(document.queue_rules)
      : queueRules.map((rule) => rule.name),
  );
  const pullRequestRules =
    defaults === INVALID
      ? INVALID
      : readPullRequestRules(
          document.pull_request_rules,
          at.at('pull_request_rules'),
          defaults.actions,
          queueRuleNames,
        );

  if (
    mergeQueue === INVALID ||
    queueRules === INVALID ||
    priorityRules === INVALID ||
    scopes === INVALID ||
    mergeProtections === INVALID ||
    mergeProtectionsSettings === INVALID ||
    commandsRestrictions === INVALID ||
    pullRequestRules === INVALID
  )
    return INVALID;

  const autoMergeConditions: ConfiguredConditions | null = mergeProtectionsSettings.autoMergeConditions;
  if (autoMergeConditions !== null) {
    const index = queueRules.findIndex((rule) => rule.autoqueue);
    if (index >= 0)
      at.at('queue_rules')
        .at(index)
        .at('autoqueue')
        .fail('autoqueue cannot be used together with merge_protections_settings.auto_merge_conditions');
  }
  return {
    queueRules,
    mergeQueue,
    priorityRules,
    scopes,
    pullRequestRules,
    mergeProtections,
    mergeProtectionsSettings,
    commandsRestrictions,
  };
}

function writtenQueueRuleNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((rule) => (isMapping(rule) && typeof rule.name === 'string' ? [rule.name] : []));
}

function readExtends(
  value: unknown,
  at: Cursor,
  unapplied: Array<{ path: PathSegment[]; message: string }>,
): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string' || value.length === 0) {
    at.fail('expected the name of a repository whose configuration this one extends');
    return;
  }
  unapplied.push({
    path: [...at.path],
    message: `extends '${value}' is not applied: Switchyard does not fetch another repository's configuration, so only the rules written in this file are in force`,
  });
}

function notice(path: readonly PathSegment[], message: string, locator: Locator): ConfigurationNotice {
  return { path, pathText: pathText(path), position: locator.locate(path), message };
}

function sortByPosition(notices: ConfigurationNotice[]): ConfigurationNotice[] {
  return notices.sort(
    (a, b) =>
      (a.position?.line ?? 0) - (b.position?.line ?? 0) ||
      (a.position?.column ?? 0) - (b.position?.column ?? 0) ||
      a.pathText.localeCompare(b.pathText),
  );
}

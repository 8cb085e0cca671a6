import { formatDuration } from '../duration/duration';
import type { ConditionSource, ConfiguredConditions } from '../schema/conditions-field';
import type { ConfigurationNotice } from '../schema/configuration-notice';
import {
  effectiveUpdateMethod,
  type MergifyConfiguration,
  type QueueRuleConfiguration,
} from '../schema/mergify-configuration';
import { priorityAlias } from '../sections/priority-rules';

/**
 * The repository simulator's markdown: what the configuration will do, section by section, in the
 * order the engine applies it. Built from the validated configuration, never from the raw text.
 */
export function summarizeConfiguration(
  configuration: MergifyConfiguration,
  unapplied: ConfigurationNotice[],
): string {
  const sections = [
    unappliedSection(unapplied),
    mergeQueueSection(configuration),
    queueRulesSection(configuration.queueRules),
    prioritySection(configuration),
    scopesSection(configuration),
    pullRequestRulesSection(configuration),
    mergeProtectionsSection(configuration),
  ];
  return sections.filter((section) => section !== '').join('\n\n') + '\n';
}

function unappliedSection(unapplied: ConfigurationNotice[]): string {
  if (unapplied.length === 0) return '';
  return [
    '### ⚠️ Not applied',
    ...unapplied.map((n) => `- \`${n.pathText}\` (line ${n.position?.line ?? '?'}): ${n.message}`),
  ].join('\n');
}

function mergeQueueSection({ mergeQueue }: MergifyConfiguration): string {
  const labels = [
    mergeQueue.queuedLabel ? `\`${mergeQueue.queuedLabel}\` while queued` : null,
    mergeQueue.checkingLabel ? `\`${mergeQueue.checkingLabel}\` while checked` : null,
    mergeQueue.dequeuedLabel ? `\`${mergeQueue.dequeuedLabel}\` when dequeued` : null,
  ].filter((label): label is string => label !== null);
  return [
    '### Merge queue',
    `- Mode: **${mergeQueue.mode}**, at most **${mergeQueue.maxParallelChecks}** check${mergeQueue.maxParallelChecks === 1 ? '' : 's'} running at once`,
    `- Intermediate results ${mergeQueue.skipIntermediateResults ? 'are skipped' : 'are not skipped'}; a merge made outside the queue ${mergeQueue.resetOnExternalMerge === 'always' ? 'resets the queue' : 'leaves the queue as it is'}`,
    `- Labels: ${labels.length > 0 ? labels.join(', ') : 'none'}; status comments: ${mergeQueue.statusComments}`,
  ].join('\n');
}

function queueRulesSection(rules: QueueRuleConfiguration[]): string {
  if (rules.length === 0)
    return '### Queue rules\nNo queue rules: pull requests cannot be queued until one is defined.';
  const lines = ['### Queue rules (in processing order)'];
  rules.forEach((rule, index) => {
    lines.push(`${index + 1}. **${rule.name}**`);
    lines.push(`   - Enters the queue when: ${conditionsText(rule.queueConditions)}`);
    lines.push(`   - Merges when: ${conditionsText(rule.mergeConditions)}`);
    const batch =
      rule.batchSize.min === rule.batchSize.max
        ? `${rule.batchSize.max}`
        : `${rule.batchSize.min} to ${rule.batchSize.max}`;
    lines.push(
      `   - Batches of ${batch} pull request${rule.batchSize.max === 1 ? '' : 's'}, waiting at most ${formatDuration(rule.batchMaxWaitTimeSeconds)} to fill`,
    );
    lines.push(
      `   - Merge method: ${rule.mergeMethod ?? 'the first one the repository allows'}; update method: ${effectiveUpdateMethod(rule)}`,
    );
    lines.push(
      `   - Checks timeout: ${checksTimeoutText(rule)}; retries of failed checks: ${rule.maxChecksRetries}`,
    );
    const attempts = rule.batchMaxFailureResolutionAttempts;
    lines.push(
      `   - A failed batch is ${attempts === null ? 'split until the culprit is found' : attempts === 0 ? 'dequeued at once' : `split at most ${attempts} time${attempts === 1 ? '' : 's'}`}`,
    );
  });
  return lines.join('\n');
}

function checksTimeoutText(rule: QueueRuleConfiguration): string {
  switch (rule.checksTimeout.kind) {
    case 'auto':
      return 'automatic (from recent CI durations)';
    case 'none':
      return 'none';
    case 'fixed':
      return formatDuration(rule.checksTimeout.seconds);
  }
}

function prioritySection({ priorityRules }: MergifyConfiguration): string {
  if (priorityRules.length === 0) return '### Priorities\nEvery pull request has priority **medium** (2000).';
  const lines = ['### Priorities (first matching rule wins; otherwise **medium**)'];
  for (const rule of priorityRules) {
    const interrupt = rule.allowChecksInterruption ? ', may interrupt running checks' : '';
    lines.push(
      `- **${rule.name}**: ${priorityAlias(rule.priority)} (${rule.priority})${interrupt}, when ${conditionsText(rule.conditions)}`,
    );
  }
  return lines.join('\n');
}

function scopesSection({ scopes }: MergifyConfiguration): string {
  if (scopes.source.kind === 'none') return '';
  const lines = ['### Scopes'];
  if (scopes.source.kind === 'manual') lines.push('- Scopes are sent through the API or the CLI');
  else
    for (const [name, filters] of Object.entries(scopes.source.files)) {
      const include =
        filters.include.length > 0 ? filters.include.map((g) => `\`${g}\``).join(', ') : 'every file';
      const exclude =
        filters.exclude.length > 0 ? `, except ${filters.exclude.map((g) => `\`${g}\``).join(', ')}` : '';
      const capacity = scopes.capacities[name] ?? scopes.defaultCapacity;
      lines.push(
        `- **${name}**: ${include}${exclude}${capacity !== null ? `; at most ${capacity} check${capacity === 1 ? '' : 's'} at once` : ''}`,
      );
    }
  if (scopes.barrierFiles)
    lines.push(
      `- Barrier files (every scope): ${scopes.barrierFiles.include.map((g) => `\`${g}\``).join(', ')}`,
    );
  lines.push(`- Merge-queue pull requests carry the scope \`${scopes.mergeQueueScope}\``);
  return lines.join('\n');
}

function pullRequestRulesSection({ pullRequestRules }: MergifyConfiguration): string {
  if (pullRequestRules.length === 0)
    return '### Pull request rules\nNo pull request rules: Mergify only listens for commands.';
  const lines = ['### Pull request rules'];
  for (const rule of pullRequestRules) {
    const actions = Object.keys(rule.actions).join(', ');
    const name =
      rule.disabledReason === null
        ? `**${rule.name}**`
        : `~~${rule.name}~~ (disabled: ${rule.disabledReason})`;
    const queue = rule.actions.queue
      ? ` → queue ${rule.actions.queue.name ? `**${String(rule.actions.queue.name)}**` : 'the first queue rule that matches'}`
      : '';
    lines.push(`- ${name} (${actions})${queue}, when ${conditionsText(rule.conditions)}`);
  }
  return lines.join('\n');
}

function mergeProtectionsSection({
  mergeProtections,
  mergeProtectionsSettings,
}: MergifyConfiguration): string {
  if (mergeProtections.length === 0 && mergeProtectionsSettings.autoMergeConditions === null) return '';
  const lines = ['### Merge protections'];
  for (const rule of mergeProtections)
    lines.push(
      `- **${rule.name}**: if ${conditionsText(rule.if)}, requires ${conditionsText(rule.successConditions)}`,
    );
  const auto = mergeProtectionsSettings.autoMergeConditions;
  if (auto !== null)
    lines.push(
      `- Auto-merge: ${auto.source === true ? 'every pull request once the protections pass' : `pull requests matching ${conditionsText(auto)}`}`,
    );
  return lines.join('\n');
}

/** `true` → always; a list → the conditions joined, groups spelled out. */
export function conditionsText({ source }: ConfiguredConditions): string {
  if (source === true || source.length === 0) return 'always';
  return source.map(conditionText).join(' and ');
}

function conditionText(condition: ConditionSource): string {
  if (typeof condition === 'string') return `\`${condition.trim()}\``;
  if ('and' in condition) return `all of (${condition.and.map(conditionText).join(', ')})`;
  if ('or' in condition) return `any of (${condition.or.map(conditionText).join(', ')})`;
  return `not ${conditionText(condition.not)}`;
}

import {
  type ConditionContext,
  type ConditionEvaluation,
  DEFAULT_CONFIGURATION_FILES,
  evaluateConditions,
  renderConditionMarkdown,
} from '../../conditions';
import type { MergifyConfiguration, PullRequestRuleConfiguration } from '../schema/mergify-configuration';

export interface PullRequestSimulation {
  title: string;
  summary: string;
}

interface JudgedRule {
  rule: PullRequestRuleConfiguration;
  evaluation: ConditionEvaluation;
  /** A condition could not be judged (a fact Switchyard does not have). */
  faulty: boolean;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * What Mergify's summary check would say for this pull request under this configuration
 * (queue-semantics §8.1): which pull request rules match and why, condition by condition. Rules
 * that match or could not be judged are shown first; the others are folded into "not applicable".
 * Pure: the pull request and the clock arrive in the context.
 */
export function simulatePullRequest(
  configuration: MergifyConfiguration,
  context: ConditionContext,
): PullRequestSimulation {
  const rules = configuration.pullRequestRules.filter((rule) => rule.disabledReason === null);
  const judged: JudgedRule[] = rules.map((rule) => {
    const evaluation = evaluateConditions(rule.conditions.tree, context);
    return { rule, evaluation, faulty: !evaluation.match && hasEvaluationError(evaluation) };
  });
  const matching = judged.filter((j) => j.evaluation.match);
  const faulty = judged.filter((j) => j.faulty);
  const notApplicable = judged.filter((j) => !j.evaluation.match && !j.faulty);

  const configurationFiles = context.configurationFiles ?? DEFAULT_CONFIGURATION_FILES;
  const changesConfiguration = context.pullRequest.files.some(
    (file) =>
      configurationFiles.includes(file.filename) ||
      (file.previousFilename !== null && configurationFiles.includes(file.previousFilename)),
  );
  return {
    title: `${changesConfiguration ? 'Configuration changed. This pull request must be merged manually — ' : ''}${title(rules.length, matching.length, faulty.length)}`,
    summary: summary(faulty, matching, notApplicable, configuration),
  };
}

function title(ruleCount: number, matching: number, faulty: number): string {
  if (ruleCount === 0) return 'no rules configured, just listening for commands';
  const parts: string[] = [];
  if (faulty > 0) parts.push(plural(faulty, 'faulty rule', 'faulty rules'));
  if (matching > 0) parts.push(matching === 1 ? '1 rule matches' : `${matching} rules match`);
  return parts.length > 0 ? parts.join(' and ') : 'no rules match, no planned actions';
}

function summary(
  faulty: JudgedRule[],
  matching: JudgedRule[],
  notApplicable: JudgedRule[],
  configuration: MergifyConfiguration,
): string {
  const sections = [...faulty, ...matching].map(ruleSection);
  const disabled = configuration.pullRequestRules.filter((rule) => rule.disabledReason !== null);
  for (const rule of disabled)
    sections.push(`### ~~Rule: ${rule.name} (${actionList(rule)})~~\nDisabled: ${rule.disabledReason}`);
  const parts = [sections.join('\n\n')];
  if (notApplicable.length > 0)
    parts.push(
      [
        '<hr />',
        '<details>',
        `<summary>${plural(notApplicable.length, 'not applicable rule', 'not applicable rules')}</summary>`,
        '',
        notApplicable.map(ruleSection).join('\n\n'),
        '</details>',
      ].join('\n'),
    );
  return `${parts.filter((part) => part !== '').join('\n\n')}\n`;
}

function ruleSection({ rule, evaluation }: JudgedRule): string {
  const conditions = renderConditionMarkdown(evaluation);
  return `### Rule: ${rule.name} (${actionList(rule)})\n${conditions === '' ? '- [X] no conditions' : conditions}`;
}

const actionList = (rule: PullRequestRuleConfiguration) => Object.keys(rule.actions).join(', ');

function hasEvaluationError(evaluation: ConditionEvaluation): boolean {
  return (
    evaluation.evaluations.some((e) => e.evaluation_error !== null) ||
    evaluation.subconditions.some(hasEvaluationError)
  );
}

import type { PullRequestSnapshot } from '@switchyard/code-host';
import type { MergifyConfiguration, QueueRuleConfiguration } from '@switchyard/mergify-config';
import { evaluateConditions, type ConditionContext } from '@switchyard/mergify-config/conditions';
import { PRIORITY } from '../policy';

/**
 * Which queue a pull request belongs in, and with which priority, by the repository's
 * configuration (queue-semantics §1.7, §1.8, §2.1). Pure: the clock is the context's `now`.
 */
export interface Admission {
  queueName: string;
  priority: number;
  priorityRuleName: string | null;
  allowCheckInterruption: boolean;
  /** "Rule: <name>" or "Command: queue <name>". */
  trigger: string;
}

const contextOf = (pullRequest: PullRequestSnapshot, now: Date): ConditionContext => ({ pullRequest, now });

const matches = (rule: { tree: Parameters<typeof evaluateConditions>[0] }, context: ConditionContext) =>
  evaluateConditions(rule.tree, context).match;

/** The queue rule the pull request may enter: the named one if its queue conditions match, else the first that matches. */
export function queueRuleFor(
  configuration: MergifyConfiguration,
  pullRequest: PullRequestSnapshot,
  now: Date,
  requested: string | null,
): QueueRuleConfiguration | null {
  const context = contextOf(pullRequest, now);
  const candidates = requested
    ? configuration.queueRules.filter((rule) => rule.name === requested)
    : configuration.queueRules;
  return candidates.find((rule) => matches(rule.queueConditions, context)) ?? null;
}

/** A pull request rule with a `queue` action whose conditions match, and the queue it names (or null). */
export function matchingQueueAction(
  configuration: MergifyConfiguration,
  pullRequest: PullRequestSnapshot,
  now: Date,
): { ruleName: string; queueName: string | null } | null {
  const context = contextOf(pullRequest, now);
  for (const rule of configuration.pullRequestRules) {
    const action = rule.actions.queue;
    if (!action || rule.disabledReason !== null) continue;
    if (!matches(rule.conditions, context)) continue;
    const name = typeof action.name === 'string' ? action.name : null;
    return { ruleName: rule.name, queueName: name };
  }
  return null;
}

/** The first matching priority rule gives the priority; medium otherwise (§1.4). */
export function priorityFor(
  configuration: MergifyConfiguration | null,
  pullRequest: PullRequestSnapshot,
  now: Date,
): Pick<Admission, 'priority' | 'priorityRuleName' | 'allowCheckInterruption'> {
  const context = contextOf(pullRequest, now);
  const rule = configuration?.priorityRules.find((candidate) => matches(candidate.conditions, context));
  return rule
    ? {
        priority: rule.priority,
        priorityRuleName: rule.name,
        allowCheckInterruption: rule.allowChecksInterruption,
      }
    : { priority: PRIORITY.medium, priorityRuleName: null, allowCheckInterruption: false };
}

/**
 * Where a pull request goes when a rule's `queue` action matches it (`via: rule`) or when someone
 * commented `@mergify queue [name]` (`via: command`). Without a configuration, a command queues
 * into the default queue; a rule needs a configuration to exist.
 */
export function admit(
  configuration: MergifyConfiguration | null,
  pullRequest: PullRequestSnapshot,
  now: Date,
  via: { kind: 'rule' } | { kind: 'command'; requested: string | null; text: string },
  defaultQueueName: string,
): Admission | null {
  if (via.kind === 'command') {
    const trigger = `Command: ${via.text}`;
    if (!configuration || configuration.queueRules.length === 0) {
      if (via.requested !== null && via.requested !== defaultQueueName) return null;
      return { queueName: defaultQueueName, trigger, ...priorityFor(configuration, pullRequest, now) };
    }
    const rule = queueRuleFor(configuration, pullRequest, now, via.requested);
    return rule ? { queueName: rule.name, trigger, ...priorityFor(configuration, pullRequest, now) } : null;
  }
  if (!configuration) return null;
  const action = matchingQueueAction(configuration, pullRequest, now);
  if (!action) return null;
  const rule =
    configuration.queueRules.length === 0 &&
    (action.queueName === null || action.queueName === defaultQueueName)
      ? { name: defaultQueueName }
      : queueRuleFor(configuration, pullRequest, now, action.queueName);
  return rule
    ? {
        queueName: rule.name,
        trigger: `Rule: ${action.ruleName}`,
        ...priorityFor(configuration, pullRequest, now),
      }
    : null;
}

/** Whether a queued pull request still meets its queue's conditions (else it leaves with PR_DEQUEUED). */
export function stillAdmissible(
  configuration: MergifyConfiguration | null,
  pullRequest: PullRequestSnapshot,
  now: Date,
  queueName: string,
): boolean {
  const rule = configuration?.queueRules.find((candidate) => candidate.name === queueName);
  return rule ? matches(rule.queueConditions, contextOf(pullRequest, now)) : true;
}

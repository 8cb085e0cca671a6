import type { ConditionNode } from '../condition-tree';
import type { ConditionContext } from './context';
import { evaluateLeaf } from './evaluate-leaf';
import { type ScheduleJson, scheduleJson } from './schedule-clock';

/** The API's ConditionEvaluation (spec "ConditionEvaluation"; queue-semantics §5.3). */
export interface ConditionEvaluation {
  match: boolean;
  label: string;
  description: string | null;
  documentation_url: string | null;
  schedule: ScheduleJson | null;
  subconditions: ConditionEvaluation[];
  evaluations: PullRequestEvaluation[];
}

export interface PullRequestEvaluation {
  pull_request: number;
  match: boolean;
  evaluation_error: string | null;
  related_checks: string[];
  /** RFC 3339; for a group, the earliest of its conditions'. */
  next_evaluation_at: string | null;
}

/**
 * Judges a condition tree for one or more pull requests (a batch is judged PR by PR). Pure: the
 * clock is each context's `now`. A node matches when it matches for every pull request; a
 * condition that cannot be judged does not match and carries its `evaluation_error`.
 */
export function evaluateConditions(
  condition: ConditionNode,
  contexts: ConditionContext | readonly ConditionContext[],
): ConditionEvaluation {
  const all = Array.isArray(contexts)
    ? (contexts as readonly ConditionContext[])
    : [contexts as ConditionContext];
  return evaluateNode(condition, all);
}

function evaluateNode(node: ConditionNode, contexts: readonly ConditionContext[]): ConditionEvaluation {
  if (node.kind === 'leaf') {
    const evaluations = contexts.map((context): PullRequestEvaluation => {
      const verdict = evaluateLeaf(node, context);
      return {
        pull_request: context.pullRequest.number,
        match: verdict.match,
        evaluation_error: verdict.error,
        related_checks: verdict.relatedChecks,
        next_evaluation_at: verdict.nextEvaluationAt?.toISOString() ?? null,
      };
    });
    return {
      match: evaluations.every((evaluation) => evaluation.match),
      label: node.label,
      description: null,
      documentation_url: null,
      schedule: node.value.kind === 'schedule' ? scheduleJson(node.value.schedule) : null,
      subconditions: [],
      evaluations,
    };
  }
  const subconditions = node.children.map((child) => evaluateNode(child, contexts));
  const evaluations = contexts.map((context, index): PullRequestEvaluation => {
    const matches = subconditions.map((sub) => sub.evaluations[index]!.match);
    const match =
      node.kind === 'and' ? matches.every(Boolean) : node.kind === 'or' ? matches.some(Boolean) : !matches[0];
    const next = subconditions
      .map((sub) => sub.evaluations[index]!.next_evaluation_at)
      .filter((at): at is string => at !== null)
      .sort()[0];
    return {
      pull_request: context.pullRequest.number,
      match,
      evaluation_error: null,
      related_checks: [],
      next_evaluation_at: next ?? null,
    };
  });
  return {
    match: evaluations.every((evaluation) => evaluation.match),
    label: node.label,
    description: null,
    documentation_url: null,
    schedule: null,
    subconditions,
    evaluations,
  };
}

import {
  type ConditionContext,
  type ConditionEvaluation,
  evaluateConditions,
  parseConditions,
} from '@switchyard/mergify-config/conditions';
import { hasBegunAt, isInForceAt } from '@switchyard/kernel';
import type { Condition } from '../conditions/condition';

/**
 * Which scheduled freezes hold a pull request's merge at an instant (queue-semantics §4.3). Pure —
 * the instant is the context's `now` — so the merge-queue engine (is_frozen, the `frozen` batch
 * status), the simulator and replays all agree.
 *
 * A freeze holds a pull request when it is in force (start ≤ now < end), the pull request matches
 * all its matching conditions (an empty list matches every pull request) and does not match its
 * exclude conditions, which are ANDed too: a pull request escapes only if it matches all of them,
 * and an empty exclude list lets nobody escape. Conditions are the condition language's, judged by
 * its evaluator.
 *
 * When a freeze cannot tell — a stored condition the language refuses (recorded before conditions
 * were checked), or a fact the context lacks (scopes, teams…) — it holds: a freeze that silently did
 * not apply would merge what its author meant to stop. The verdict says why.
 */
export interface CalendarFreeze {
  id: string;
  startAt: Date;
  /** null = indefinite. */
  endAt: Date | null;
  matchingConditions: readonly Condition[];
  excludeConditions: readonly Condition[];
}

export interface FreezeVerdict<Freeze extends CalendarFreeze> {
  freeze: Freeze;
  holds: boolean;
  matching: ConditionEvaluation | null;
  exclude: ConditionEvaluation | null;
  /** Why the freeze held without being able to judge the pull request. */
  undecided: string | null;
  /** When this verdict may change by the clock alone: the freeze's start or end, or a time condition. */
  nextChangeAt: Date | null;
}

export function activeFreezesAt<Freeze extends CalendarFreeze>(
  freezes: readonly Freeze[],
  context: ConditionContext,
): Freeze[] {
  return judgeFreezes(freezes, context)
    .filter((verdict) => verdict.holds)
    .map((verdict) => verdict.freeze);
}

export function judgeFreezes<Freeze extends CalendarFreeze>(
  freezes: readonly Freeze[],
  context: ConditionContext,
): FreezeVerdict<Freeze>[] {
  return freezes.map((freeze) => judgeFreeze(freeze, context));
}

function judgeFreeze<Freeze extends CalendarFreeze>(
  freeze: Freeze,
  context: ConditionContext,
): FreezeVerdict<Freeze> {
  const now = context.now;
  const windowEdge = !hasBegunAt(freeze, now)
    ? freeze.startAt
    : freeze.endAt && freeze.endAt > now
      ? freeze.endAt
      : null;
  const idle = { freeze, matching: null, exclude: null, undecided: null, nextChangeAt: windowEdge };
  if (!isInForceAt(freeze, now)) return { ...idle, holds: false };

  const matchingTree = parseConditions([...freeze.matchingConditions], ['matching_conditions']);
  const excludeTree = parseConditions([...freeze.excludeConditions], ['exclude_conditions']);
  if (!matchingTree.ok || !excludeTree.ok) {
    const refused = [matchingTree, excludeTree].flatMap((parsed) => (parsed.ok ? [] : parsed.errors));
    return {
      ...idle,
      holds: true,
      undecided: refused.map((error) => `${error.path}: ${error.message}`).join('; '),
    };
  }

  const matching = evaluateConditions(matchingTree.condition, context);
  const exclude =
    freeze.excludeConditions.length > 0 ? evaluateConditions(excludeTree.condition, context) : null;
  const errors = [...errorsIn(matching), ...(exclude ? errorsIn(exclude) : [])];
  const matches = matching.match || errorsIn(matching).length > 0;
  const escapes = exclude !== null && exclude.match && errorsIn(exclude).length === 0;
  const nextChangeAt = earliest([
    windowEdge,
    nextEvaluationOf(matching),
    exclude ? nextEvaluationOf(exclude) : null,
  ]);
  return {
    freeze,
    holds: matches && !escapes,
    matching,
    exclude,
    undecided: errors.length > 0 ? errors.join('; ') : null,
    nextChangeAt,
  };
}

function errorsIn(evaluation: ConditionEvaluation): string[] {
  const own = evaluation.evaluations.flatMap((item) =>
    item.evaluation_error ? [`${evaluation.label}: ${item.evaluation_error}`] : [],
  );
  return [...own, ...evaluation.subconditions.flatMap(errorsIn)];
}

const nextEvaluationOf = (evaluation: ConditionEvaluation): Date | null => {
  const at = evaluation.evaluations[0]?.next_evaluation_at;
  return at ? new Date(at) : null;
};

const earliest = (instants: (Date | null)[]): Date | null =>
  instants.reduce<Date | null>((first, at) => (at && (!first || at < first) ? at : first), null);

import { isInForceAt } from '@switchyard/kernel';
import { type Condition, isAndGroup, isOrGroup } from '../conditions/condition';

/**
 * Which scheduled freezes hold a pull request's merge at an instant. Pure, so the merge-queue engine
 * (is_frozen, the `frozen` batch status), the simulator and replays all agree.
 *
 * The group logic lives here: a top-level list is an AND (an empty matching list matches every pull
 * request), `and`/`or`/`not` nest, and exclude conditions are ANDed too — a pull request escapes a
 * freeze only if it matches all of them (queue-semantics §4.3); an empty exclude list lets nobody
 * escape. Leaf conditions (`base=main`) are judged by the injected predicate, so the real condition
 * language (configuration issue) plugs in without touching the calendar.
 */
export interface CalendarFreeze {
  id: string;
  startAt: Date;
  /** null = indefinite. */
  endAt: Date | null;
  matchingConditions: readonly Condition[];
  excludeConditions: readonly Condition[];
}

export type LeafEvaluator<PullRequest> = (condition: string, pullRequest: PullRequest) => boolean;

export function activeFreezesAt<Freeze extends CalendarFreeze, PullRequest>(
  freezes: readonly Freeze[],
  instant: Date,
  pullRequest: PullRequest,
  evaluateLeaf: LeafEvaluator<PullRequest>,
): Freeze[] {
  const matches = (condition: Condition): boolean => evaluate(condition, pullRequest, evaluateLeaf);
  return freezes.filter(
    (freeze) =>
      isInForceAt(freeze, instant) &&
      freeze.matchingConditions.every(matches) &&
      !(freeze.excludeConditions.length > 0 && freeze.excludeConditions.every(matches)),
  );
}

function evaluate<PullRequest>(
  condition: Condition,
  pullRequest: PullRequest,
  evaluateLeaf: LeafEvaluator<PullRequest>,
): boolean {
  if (typeof condition === 'string') return evaluateLeaf(condition, pullRequest);
  const recurse = (inner: Condition) => evaluate(inner, pullRequest, evaluateLeaf);
  if (isAndGroup(condition)) return condition.and.every(recurse);
  if (isOrGroup(condition)) return condition.or.some(recurse);
  return !recurse(condition.not);
}

import type { Operator } from '../syntax/operators';

/** A condition that cannot be judged for this pull request: it does not match, and says why. */
export class EvaluationError extends Error {}

export interface Judgement {
  match: boolean;
  nextEvaluationAt: Date | null;
}

export const timeless = (match: boolean): Judgement => ({ match, nextEvaluationAt: null });

export function compareNumbers(actual: number, operator: Operator, expected: number): boolean {
  switch (operator) {
    case '=':
      return actual === expected;
    case '!=':
      return actual !== expected;
    case '>=':
      return actual >= expected;
    case '>':
      return actual > expected;
    case '<=':
      return actual <= expected;
    case '<':
      return actual < expected;
    default:
      throw new EvaluationError(`\`${operator}\` does not compare numbers`);
  }
}

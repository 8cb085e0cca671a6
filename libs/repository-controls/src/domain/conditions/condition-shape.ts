import {
  type ConditionError,
  MAX_CONDITIONS_PER_LIST,
  parseConditions,
  type PathStep,
} from '@switchyard/mergify-config/conditions';
import { storableStringProblem } from '@switchyard/kernel';

/** Where in the submitted value a problem is, e.g. [2, 'and', 0]; the HTTP edge prefixes the field. */
export type ConditionPath = PathStep[];

export interface ConditionProblem {
  path: ConditionPath;
  message: string;
}

export { MAX_CONDITIONS_PER_LIST };

/**
 * Every problem in a freeze's condition list (empty when it is valid): the condition language's own
 * verdict (attributes, operators, values, blocks; queue-semantics §5) and, before it, what no store
 * could keep. Conditions are kept and echoed exactly as received, so nothing here normalizes.
 */
export function conditionListProblems(value: unknown): ConditionProblem[] {
  if (!Array.isArray(value)) return [{ path: [], message: 'Input should be a valid list' }];
  return problemsOf(value, []);
}

/** Problems of one element of a condition list. */
export function conditionProblems(value: unknown): ConditionProblem[] {
  // A list or `true` is a whole condition field, not one of its conditions.
  if (Array.isArray(value) || typeof value === 'boolean')
    return [{ path: [], message: 'A condition is a string or an object with one of the keys and, or, not' }];
  return problemsOf(value, []);
}

function problemsOf(value: unknown, path: ConditionPath): ConditionProblem[] {
  const unstorable = unstorableLeaves(value, path, 0);
  const parsed = parseConditions(value, path);
  const parserProblems = parsed.ok ? [] : parsed.errors.map(toProblem);
  const seen = new Set(unstorable.map((problem) => JSON.stringify(problem.path)));
  return [...unstorable, ...parserProblems.filter((problem) => !seen.has(JSON.stringify(problem.path)))];
}

const toProblem = (error: ConditionError): ConditionProblem => ({
  path: error.location,
  message: error.message,
});

/** Strings every store can hold; the walk stops where the parser's nesting bound would refuse anyway. */
function unstorableLeaves(value: unknown, path: ConditionPath, depth: number): ConditionProblem[] {
  if (typeof value === 'string') {
    const problem = storableStringProblem(value);
    return problem ? [{ path, message: `A condition ${problem.message}` }] : [];
  }
  if (depth > 20 || typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value))
    return value.flatMap((item, index) => unstorableLeaves(item, [...path, index], depth + 1));
  return Object.entries(value).flatMap(([key, inner]) => unstorableLeaves(inner, [...path, key], depth + 1));
}

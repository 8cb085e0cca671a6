import type { ValidationIssue } from '@switchyard/http';
import type { ConfigurationNotice } from '../domain/schema/configuration-notice';

/**
 * One configuration problem as a FastAPI-style 422 issue (queue-semantics §8.1: type
 * `mergify_config_error`, one item per problem, sorted). The message leads with the path and the
 * line so a person reading only `msg` can find it; `ctx` carries them as data.
 */
export function configurationProblemIssue(
  problem: ConfigurationNotice,
  loc: Array<string | number>,
): ValidationIssue {
  const where = problem.position ? ` (line ${problem.position.line}, column ${problem.position.column})` : '';
  return {
    type: 'mergify_config_error',
    loc,
    msg: `${problem.pathText}${where}: ${problem.message}`,
    input: null,
    ctx: {
      path: problem.pathText,
      line: problem.position?.line ?? null,
      column: problem.position?.column ?? null,
    },
  };
}

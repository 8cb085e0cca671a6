import { codePointLength } from '@switchyard/kernel';
import { issueShapes } from '../validation/issue-shapes';
import { issueAt, RequestValidationException, type ValidationIssue } from '../validation/validation-issue';

/**
 * The repository a request addresses. `key` is the lower-cased `owner/repository`: code-host
 * identities are case-insensitive, so streams, rows and log records all use it.
 */
export interface RepositoryRef {
  owner: string;
  repository: string;
  key: string;
}

/** Limits from the spec's "Shared path parameters". */
export const OWNER_PATTERN = '^[a-zA-Z0-9\\-]+$';
export const REPOSITORY_PATTERN = '^[\\w\\-\\.]+$';
const OWNER_RULE = new RegExp(OWNER_PATTERN);
const REPOSITORY_RULE = new RegExp(REPOSITORY_PATTERN);
const OWNER_MAX = 40;
const REPOSITORY_MAX = 100;

function checkPathText(
  name: string,
  value: unknown,
  max: number,
  pattern: string,
  rule: RegExp,
  issues: ValidationIssue[],
): value is string {
  const loc = ['path', name];
  if (typeof value !== 'string') {
    issues.push(issueAt(loc, value ?? null, issueShapes.missing()));
    return false;
  }
  const length = codePointLength(value, max);
  const shape =
    length < 1
      ? issueShapes.stringTooShort(1)
      : length > max
        ? issueShapes.stringTooLong(max)
        : rule.test(value)
          ? null
          : issueShapes.stringPattern(pattern);
  if (shape) issues.push(issueAt(loc, value, shape));
  return shape === null;
}

/** Reads and checks `owner` and `repository` from route params; 422 with `loc: ["path", name]`. */
export function parseRepositoryRef(params: Record<string, unknown>): RepositoryRef {
  const issues: ValidationIssue[] = [];
  const owner = params.owner;
  const repository = params.repository;
  const ownerOk = checkPathText('owner', owner, OWNER_MAX, OWNER_PATTERN, OWNER_RULE, issues);
  const repositoryOk = checkPathText(
    'repository',
    repository,
    REPOSITORY_MAX,
    REPOSITORY_PATTERN,
    REPOSITORY_RULE,
    issues,
  );
  if (!ownerOk || !repositoryOk) throw new RequestValidationException(issues);
  return {
    owner: owner as string,
    repository: repository as string,
    key: `${owner as string}/${repository as string}`.toLowerCase(),
  };
}

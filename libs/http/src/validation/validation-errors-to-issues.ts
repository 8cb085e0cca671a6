import { getMetadataStorage, type ValidationError } from 'class-validator';
import { issueDescriberFor, RANK_TYPE } from './issue-describers';
import { issueShapes } from './issue-shapes';
import { issueAt, type IssueShape, type ValidationIssue } from './validation-issue';

const NESTED_VALIDATION = 'nestedValidation';

type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

/**
 * Maps class-validator errors to pydantic-style issues: one issue per failing field (or per
 * failing element of a list), `loc` from the request location down to the field, and `input` read
 * from the request as the caller sent it (before any transform), or the enclosing object when the
 * field is missing, as FastAPI reports it.
 */
export function validationErrorsToIssues(
  errors: readonly ValidationError[],
  original: unknown,
  location: Array<string | number>,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of errors) collect(error, original, location, issues);
  return issues;
}

function collect(
  error: ValidationError,
  parent: unknown,
  parentLoc: Array<string | number>,
  out: ValidationIssue[],
) {
  const key = /^\d+$/.test(error.property) && Array.isArray(parent) ? Number(error.property) : error.property;
  const loc = [...parentLoc, key];
  const input = childOf(parent, key);
  const constraints = Object.keys(error.constraints ?? {});

  if (constraints.length > 0) {
    out.push(...issuesForField(error, constraints, parent, input, loc));
    return;
  }
  for (const child of error.children ?? []) collect(child, input, loc, out);
}

function issuesForField(
  error: ValidationError,
  constraints: string[],
  parent: unknown,
  input: unknown,
  loc: Array<string | number>,
): ValidationIssue[] {
  // Rules judge the transformed value (QueryInt made "5" a 5); `input` stays what the caller sent.
  const value: unknown = error.value;
  if (input === undefined && value === undefined) return [issueAt(loc, parent ?? {}, issueShapes.missing())];
  if (constraints.includes(NESTED_VALIDATION)) return [issueAt(loc, input, issueShapes.dictType())];

  const rules = constraints.map((name) => ruleFor(error, name)).sort((a, b) => a.rank - b.rank);
  const first = rules[0]!;
  // A list whose items are checked one by one: report the failing positions, as pydantic does.
  if (Array.isArray(value) && first.each) {
    const itemRules = rules.filter((rule) => rule.each);
    const perItem = value.flatMap((item: unknown, index) => {
      const broken = itemRules.find((rule) => !rule.test(item));
      const sent = Array.isArray(input) ? input[index] : input;
      return broken ? [issueAt([...loc, index], sent, broken.describe(item))] : [];
    });
    if (perItem.length > 0) return perItem;
  }
  return [issueAt(loc, input, first.describe(value))];
}

interface ResolvedRule {
  rank: number;
  each: boolean;
  test(value: unknown): boolean;
  describe(value: unknown): IssueShape;
}

function ruleFor(error: ValidationError, name: string): ResolvedRule {
  const metadata = findMetadata(error, name);
  const constraints = metadata?.constraints ?? [];
  const describer = issueDescriberFor(name);
  const message = error.constraints?.[name] ?? 'Invalid value';
  if (!describer) {
    return {
      rank: RANK_TYPE + 3,
      each: false,
      test: () => false,
      describe: () => issueShapes.valueError(message),
    };
  }
  return {
    rank: describer.rank,
    each: metadata?.each ?? false,
    test: (value) => describer.test(value, constraints),
    describe: (value) => describer.describe(value, constraints),
  };
}

/** The declaration behind a failed constraint, for its arguments (255 in MaxCodePoints(255)). */
function findMetadata(error: ValidationError, name: string): ValidationMetadata | undefined {
  const target = error.target?.constructor;
  if (!target) return undefined;
  return getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .find(
      (metadata) => metadata.propertyName === error.property && (metadata.name ?? metadata.type) === name,
    );
}

const childOf = (parent: unknown, key: string | number): unknown =>
  parent !== null && typeof parent === 'object'
    ? (parent as Record<string | number, unknown>)[key]
    : undefined;

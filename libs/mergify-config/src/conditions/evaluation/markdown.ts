import type { ConditionEvaluation } from './condition-evaluation';

/**
 * A ConditionEvaluation as the markdown of Mergify's summaries (queue-semantics §5.3): one line per
 * condition, `- [X] \`cond\`` when it matches and `- [ ] \`cond\`` when not, then its description
 * and ` ⚠️ <error>` when it could not be judged; blocks print `all of:` / `any of:` / `not:` with
 * their conditions indented two spaces. With several pull requests, a condition that is not about
 * checks or time gets one sub-line per pull request (`  - [X] #123`).
 */
export interface MarkdownOptions {
  /** Print a top-level `all of` (a configuration's condition list) as its conditions alone. Default true. */
  flattenRoot?: boolean;
}

/** Leaves can never carry these labels: no attribute is called so. */
const GROUP_LABELS = ['all of', 'any of', 'not'];

export function renderConditionMarkdown(
  evaluation: ConditionEvaluation,
  options: MarkdownOptions = {},
): string {
  const lines: string[] = [];
  if ((options.flattenRoot ?? true) && evaluation.label === 'all of')
    for (const sub of evaluation.subconditions) renderNode(sub, 0, lines);
  else renderNode(evaluation, 0, lines);
  return lines.join('\n');
}

const box = (match: boolean): string => (match ? '[X]' : '[ ]');

function renderNode(node: ConditionEvaluation, depth: number, lines: string[]): void {
  const indent = '  '.repeat(depth);
  const description = node.description ? ` [${node.description}]` : '';
  if (GROUP_LABELS.includes(node.label)) {
    lines.push(`${indent}- ${box(node.match)} ${node.label}:${description}`);
    for (const sub of node.subconditions) renderNode(sub, depth + 1, lines);
    return;
  }
  const errors = [...new Set(node.evaluations.map((evaluation) => evaluation.evaluation_error))].filter(
    (error): error is string => error !== null,
  );
  const warning = errors.length > 0 ? ` ⚠️ ${errors.join('; ')}` : '';
  lines.push(`${indent}- ${box(node.match)} \`${node.label}\`${description}${warning}`);
  if (node.evaluations.length > 1 && !isAboutChecksOrTime(node))
    for (const evaluation of node.evaluations)
      lines.push(`${indent}  - ${box(evaluation.match)} #${evaluation.pull_request}`);
}

/** Check and time conditions are judged on the batch as a whole (the draft pull request), so once. */
const isAboutChecksOrTime = (node: ConditionEvaluation): boolean =>
  node.schedule !== null || /^-?\s*#?\s*(check|schedule|current-datetime)/.test(node.label);

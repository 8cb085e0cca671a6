import type { LogEventJson } from './api-types';

/** One batch of a bisection: the pull requests it checked, how its checks ended, and its halves. */
export interface BisectionNode {
  batchId: string;
  name: string;
  pullRequests: number[];
  outcome: 'success' | 'failure' | 'pending';
  children: BisectionNode[];
}

export interface BisectionTree {
  root: BisectionNode;
  culprits: number[];
}

/** The log records the tree is drawn from. */
export const BISECTION_EVENT_TYPES = [
  'action.queue.batch_bisection_start',
  'action.queue.batch_bisection_end',
  'action.queue.checks_start',
  'action.queue.checks_end',
];

const numbers = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const contains = (outer: number[], inner: number[]) => inner.every((number) => outer.includes(number));

/** A checks_end's outcome: its speculative check's conclusion, a failure when aborted. */
function outcomeOf(end: LogEventJson): BisectionNode['outcome'] {
  if (end.metadata['aborted'] === true) return 'failure';
  const check = end.metadata['speculative_check_pull_request'] as { checks_conclusion?: unknown } | undefined;
  return check?.checks_conclusion === 'success' ? 'success' : 'failure';
}

/**
 * The latest top-level bisection in these records, as a tree: the failed batch at the root, each
 * batch checked on a part of it below the smallest batch holding all of its pull requests (the
 * split it came from), with how its checks ended and the culprits the bisection confirmed; checks
 * after the bisection's end are left out.
 */
export function bisectionTreeOf(events: readonly LogEventJson[]): BisectionTree | null {
  const ordered = [...events].sort((a, b) => a.received_at.localeCompare(b.received_at) || a.id - b.id);
  const start = ordered
    .filter(
      (event) =>
        event.type === 'action.queue.batch_bisection_start' && event.metadata['is_top_level'] === true,
    )
    .at(-1);
  const rootId = start && text(start.metadata['batch_id']);
  if (!start || !rootId) return null;
  const original = numbers(start.metadata['original_batch_pr_numbers']);

  const nodes = new Map<string, BisectionNode & { seen: string }>();
  nodes.set(rootId, {
    batchId: rootId,
    name: text(start.metadata['batch_name']) ?? rootId,
    pullRequests: original,
    outcome: 'failure',
    children: [],
    seen: '',
  });
  const culprits = new Set<number>();
  // Checks after the bisection's end (its survivors requeued) are not part of it.
  const end = ordered.find(
    (event) =>
      event.type === 'action.queue.batch_bisection_end' &&
      event.metadata['batch_id'] === rootId &&
      event.received_at >= start.received_at,
  );
  for (const event of ordered) {
    if (
      event.received_at < start.received_at ||
      event.metadata['queue_name'] !== start.metadata['queue_name']
    )
      continue;
    if (end && event.received_at > end.received_at) break;
    if (event.type === 'action.queue.batch_bisection_end' && event.metadata['batch_id'] === rootId) {
      for (const number of numbers(event.metadata['confirmed_culprit_pr_numbers'])) culprits.add(number);
      continue;
    }
    const batchId = text(event.metadata['batch_id']);
    const pullRequests = numbers(event.metadata['pull_request_numbers']);
    if (!batchId || batchId === rootId || pullRequests.length === 0 || !contains(original, pullRequests))
      continue;
    if (event.type === 'action.queue.checks_start' && !nodes.has(batchId))
      nodes.set(batchId, {
        batchId,
        name: text(event.metadata['batch_name']) ?? batchId,
        pullRequests,
        outcome: 'pending',
        children: [],
        seen: event.received_at,
      });
    if (event.type === 'action.queue.checks_end') {
      const node = nodes.get(batchId);
      if (node) node.outcome = outcomeOf(event);
    }
  }

  // Larger batches first, then earlier ones: each batch hangs below the last, smallest one holding it.
  const placed = [...nodes.values()].sort(
    (a, b) => b.pullRequests.length - a.pullRequests.length || a.seen.localeCompare(b.seen),
  );
  for (const [index, node] of placed.entries()) {
    if (index === 0) continue;
    const parents = placed
      .slice(0, index)
      .filter((candidate) => contains(candidate.pullRequests, node.pullRequests));
    const parent = parents.reduce((best, candidate) =>
      candidate.pullRequests.length <= best.pullRequests.length ? candidate : best,
    );
    parent.children.push(node);
  }
  const strip = ({ batchId, name, pullRequests, outcome, children }: BisectionNode): BisectionNode => ({
    batchId,
    name,
    pullRequests,
    outcome,
    children: children.map(strip),
  });
  return { root: strip(placed[0]), culprits: [...culprits].sort((a, b) => a - b) };
}

import type { BisectionNode, BisectionTree } from '../bisection-view-model';
import { pullHref } from '../routes';

const OUTCOME_WORDS: Record<BisectionNode['outcome'], string> = {
  success: '✓ passed',
  failure: '✗ failed',
  pending: '… not finished',
};

/** A failed batch's bisection as nested lists: each split below the batch it came from. */
export function BisectionTreeView({ repository, tree }: { repository: string; tree: BisectionTree }) {
  const node = (batch: BisectionNode) => (
    <li key={batch.batchId} data-testid="bisection-batch">
      <span class={batch.outcome === 'success' ? 'holds' : batch.outcome === 'failure' ? 'fails' : 'muted'}>
        {OUTCOME_WORDS[batch.outcome]}
      </span>{' '}
      {batch.pullRequests.map((number) => (
        <a key={number} href={pullHref(repository, number)} class="batch-pull">
          #{number}
          {tree.culprits.includes(number) && batch.pullRequests.length === 1 ? ' (culprit)' : ''}
        </a>
      ))}
      {batch.children.length > 0 && <ul class="bisection">{batch.children.map(node)}</ul>}
    </li>
  );
  return (
    <figure aria-labelledby="bisection-title">
      <figcaption id="bisection-title">
        Bisection of {tree.root.name}
        {tree.culprits.length > 0 &&
          `: culprit${tree.culprits.length > 1 ? 's' : ''} ${tree.culprits.map((n) => `#${n}`).join(', ')}`}
      </figcaption>
      <ul class="bisection" data-testid="bisection-tree">
        {node(tree.root)}
      </ul>
    </figure>
  );
}

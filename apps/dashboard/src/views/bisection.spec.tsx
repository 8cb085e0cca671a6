import { render } from 'preact-render-to-string';
import { bisectionTreeOf, type BisectionTree } from '../bisection-view-model';
import { checked, record } from '../testing/queue-log-records';
import { BisectionTreeView } from './bisection';

/** Batch #11–#14 failed; the halves ran, #13 failed alone and was found guilty, #14 still runs. */
const tree: BisectionTree = bisectionTreeOf([
  ...checked(0, 'b-all', [11, 12, 13, 14], 'failure'),
  record('action.queue.batch_bisection_start', 2, {
    batch_id: 'b-all',
    batch_name: 'default #11 #12 #13 #14',
    original_batch_pr_numbers: [11, 12, 13, 14],
    is_top_level: true,
  }),
  ...checked(3, 'b-12', [11, 12], 'success'),
  ...checked(3, 'b-34', [13, 14], 'failure'),
  ...checked(5, 'b-3', [13], 'failure'),
  ...checked(5, 'b-4', [14]),
  record('action.queue.batch_bisection_end', 9, { batch_id: 'b-all', confirmed_culprit_pr_numbers: [13] }),
])!;

describe('the bisection tree', () => {
  const html = render(<BisectionTreeView repository="acme/shop" tree={tree} />);
  /** Each batch's outcome mark and pull request links, in document (depth-first) order. */
  const batches = html
    .split(/(?=<li data-testid="bisection-batch">)/)
    .slice(1)
    .map((item) => ({
      mark: /^<li[^>]*><span class="([^"]+)">(.*?)<\/span>/.exec(item)!.slice(1),
      pulls: [...item.split('<ul')[0].matchAll(/<a href="([^"]+)" class="batch-pull">(.*?)<\/a>/g)].map(
        ([, href, words]) => [href, words],
      ),
    }));

  it('names the failed batch and the culprit the bisection found', () => {
    expect(html).toContain(
      '<figure aria-labelledby="bisection-title"><figcaption id="bisection-title">' +
        'Bisection of default #11 #12 #13 #14: culprit #13</figcaption>',
    );
  });

  it('draws each split below the batch it came from', () => {
    expect(batches.map((batch) => batch.pulls.map(([, words]) => words).join(' '))).toEqual([
      '#11 #12 #13 #14',
      '#11 #12',
      '#13 #14',
      '#13 (culprit)',
      '#14',
    ]);
    // How deep each one is nested: the halves in the root's list, the single pull requests in the failed half's.
    const depths = [...html.matchAll(/<li data-testid="bisection-batch">/g)].map(({ index }) => {
      const before = html.slice(0, index);
      return before.split('<ul class="bisection"').length - before.split('</ul>').length;
    });
    expect(depths).toEqual([1, 2, 2, 3, 3]);
  });

  it('marks which splits passed, which failed and which have not finished', () => {
    expect(batches.map((batch) => batch.mark)).toEqual([
      ['fails', '✗ failed'],
      ['holds', '✓ passed'],
      ['fails', '✗ failed'],
      ['fails', '✗ failed'],
      ['muted', '… not finished'],
    ]);
  });

  it("links every batch's pull requests to their stories", () => {
    expect(batches[2].pulls).toEqual([
      ['/ui/repos/acme/shop/pulls/13', '#13'],
      ['/ui/repos/acme/shop/pulls/14', '#14'],
    ]);
    expect(batches[3].pulls).toEqual([['/ui/repos/acme/shop/pulls/13', '#13 (culprit)']]);
  });

  it('names no culprit when none was found', () => {
    const unresolved = render(<BisectionTreeView repository="acme/shop" tree={{ ...tree, culprits: [] }} />);
    expect(unresolved).toContain(
      '<figcaption id="bisection-title">Bisection of default #11 #12 #13 #14</figcaption>',
    );
    expect(unresolved).not.toContain('culprit');
  });
});

import { bisectionTreeOf } from './bisection-view-model';
import { checked, record } from './testing/queue-log-records';

describe('bisection tree', () => {
  it('hangs each half below the batch it was split from, with its outcome and the culprits', () => {
    const events = [
      ...checked(0, 'b-all', [1, 2, 3, 4], 'failure'),
      record('action.queue.batch_bisection_start', 2, {
        batch_id: 'b-all',
        batch_name: 'default #1 #2 #3 #4',
        original_batch_pr_numbers: [1, 2, 3, 4],
        is_top_level: true,
      }),
      ...checked(3, 'b-12', [1, 2], 'success'),
      ...checked(3, 'b-34', [3, 4], 'failure'),
      ...checked(5, 'b-3', [3], 'failure'),
      ...checked(5, 'b-4', [4]),
      ...checked(7, 'b-other', [9], 'success'),
      record('action.queue.batch_bisection_end', 9, {
        batch_id: 'b-all',
        confirmed_culprit_pr_numbers: [3],
      }),
      // After the end: #4 requeued on its own, no longer part of the bisection.
      ...checked(11, 'b-4-again', [4], 'success'),
    ];
    const tree = bisectionTreeOf(events)!;
    expect(tree.culprits).toEqual([3]);
    const shape = (node: typeof tree.root): unknown => [
      node.pullRequests.join(','),
      node.outcome,
      node.children.map(shape),
    ];
    expect(shape(tree.root)).toEqual([
      '1,2,3,4',
      'failure',
      [
        ['1,2', 'success', []],
        [
          '3,4',
          'failure',
          [
            ['3', 'failure', []],
            ['4', 'pending', []],
          ],
        ],
      ],
    ]);
    expect(tree.root.name).toBe('default #1 #2 #3 #4');
  });

  it('has no tree without a top-level bisection', () => {
    expect(bisectionTreeOf(checked(0, 'b', [1, 2], 'failure'))).toBeNull();
  });
});

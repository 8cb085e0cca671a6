import type { LogEventJson } from './api-types';
import { bisectionTreeOf } from './bisection-view-model';

let id = 0;
const record = (type: string, second: number, metadata: Record<string, unknown>): LogEventJson => ({
  id: ++id,
  received_at: `2026-03-02T10:00:${String(second).padStart(2, '0')}Z`,
  trigger: 'merge queue',
  pull_request: null,
  base_ref: 'main',
  outcome: 'neutral',
  type,
  metadata: { queue_name: 'default', ...metadata },
});
const checked = (second: number, batchId: string, numbers: number[], conclusion?: string) => [
  record('action.queue.checks_start', second, {
    batch_id: batchId,
    batch_name: `default ${numbers.map((n) => `#${n}`).join(' ')}`,
    pull_request_numbers: numbers,
  }),
  ...(conclusion
    ? [
        record('action.queue.checks_end', second + 1, {
          batch_id: batchId,
          pull_request_numbers: numbers,
          aborted: false,
          speculative_check_pull_request: { checks_conclusion: conclusion },
        }),
      ]
    : []),
];

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

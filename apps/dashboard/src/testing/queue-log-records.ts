import type { LogEventJson } from '../api-types';

/** Activity-log records as the merge queue writes them, for the dashboard's bisection specs. */
let id = 0;
export const record = (type: string, second: number, metadata: Record<string, unknown>): LogEventJson => ({
  id: ++id,
  received_at: `2026-03-02T10:00:${String(second).padStart(2, '0')}Z`,
  trigger: 'merge queue',
  pull_request: null,
  base_ref: 'main',
  outcome: 'neutral',
  type,
  metadata: { queue_name: 'default', ...metadata },
});
export const checked = (second: number, batchId: string, numbers: number[], conclusion?: string) => [
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

/** An activity-log event as GET /v1/repos/{owner}/{repo}/logs returns it (the fields the demo reads). */
export interface LogEvent {
  readonly id: number;
  readonly received_at: string;
  readonly pull_request: number | null;
  readonly type: string;
  readonly metadata: Record<string, unknown>;
}

export type NarrationKind = 'entered' | 'batch' | 'checks' | 'bisection' | 'merged' | 'dequeued' | 'waiting';

export interface Narration {
  readonly at: string;
  readonly kind: NarrationKind;
  readonly text: string;
}

const list = (numbers: unknown): string =>
  Array.isArray(numbers) ? numbers.map((n) => `#${String(n)}`).join(' ') : '';

interface SpeculativeCheck {
  number: number;
  in_place: boolean;
  checks_conclusion: string;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const CONCLUSIONS: Readonly<Record<string, string>> = { success: 'passed', failure: 'failed' };

const checkPullRequest = (check: SpeculativeCheck): string =>
  check.in_place ? 'on the pull request itself' : `on draft #${check.number}`;

/**
 * Tells what the queue does, one line per thing that happened, read from the activity log alone.
 * The log writes one record per pull request for what happens to a whole batch (checks, bisection,
 * composition); the narrator tells such a thing once, so it remembers which it has told.
 */
export class QueueNarrator {
  private readonly told = new Set<string>();

  narrate(event: LogEvent): Narration | null {
    const m = event.metadata;
    const at = event.received_at;
    const pr = `#${String(event.pull_request)}`;
    switch (event.type) {
      case 'action.queue.enter':
        return { at, kind: 'entered', text: `${pr} entered the queue "${String(m.queue_name)}"` };
      case 'action.queue.batch_composition':
        return this.once(event, [m.train_car_id, m.pull_request_numbers], {
          at,
          kind: 'batch',
          text: `batch of ${list(m.pull_request_numbers)} composed`,
        });
      case 'action.queue.checks_start': {
        const check = m.speculative_check_pull_request as SpeculativeCheck;
        return this.once(event, [check.number, m.pull_request_numbers], {
          at,
          kind: 'checks',
          text: `checks started for ${list(m.pull_request_numbers)} ${checkPullRequest(check)}`,
        });
      }
      case 'action.queue.checks_end': {
        const check = m.speculative_check_pull_request as SpeculativeCheck;
        const what = m.aborted
          ? `stopped: ${String(m.abort_reason ?? m.abort_code)}`
          : (CONCLUSIONS[check.checks_conclusion] ?? `ended: ${check.checks_conclusion}`);
        return this.once(event, [check.number, m.pull_request_numbers], {
          at,
          kind: 'checks',
          text: `checks of ${list(m.pull_request_numbers)} ${what}`,
        });
      }
      case 'action.queue.batch_bisection_start':
        return this.once(event, [m.train_car_id, m.original_batch_pr_numbers, m.bisection_depth], {
          at,
          kind: 'bisection',
          text: `bisecting ${list(m.original_batch_pr_numbers)} into ${plural(Number(m.number_of_sub_batches), 'sub-batch', 'sub-batches')}`,
        });
      case 'action.queue.batch_bisection_end':
        return this.once(event, [m.train_car_id, m.original_batch_pr_numbers], {
          at,
          kind: 'bisection',
          text: m.culprit_found
            ? `bisection of ${list(m.original_batch_pr_numbers)} found the culprit: ${list(m.culprit_pr_numbers)}`
            : `bisection of ${list(m.original_batch_pr_numbers)} ended without a culprit`,
        });
      case 'action.queue.conflict_deferred':
        return { at, kind: 'waiting', text: `${pr} waits: ${String(m.reason)}` };
      case 'action.queue.merged':
        return { at, kind: 'merged', text: `${pr} merged` };
      case 'action.queue.leave': {
        // A merged pull request also leaves; its merge was told above.
        if (m.merged) return null;
        const code = typeof m.dequeue_code === 'string' ? m.dequeue_code : null;
        return {
          at,
          kind: 'dequeued',
          text: `${pr} dequeued${code ? ` (${code})` : ''}: ${String(m.reason)}`,
        };
      }
      default:
        return null;
    }
  }

  private once(event: LogEvent, key: unknown[], narration: Narration): Narration | null {
    const identity = JSON.stringify([event.type, event.received_at, ...key]);
    if (this.told.has(identity)) return null;
    this.told.add(identity);
    return narration;
  }
}

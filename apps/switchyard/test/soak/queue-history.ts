/** One event of the queue's stream, as stored. */
export interface QueueEvent {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** One stay of a pull request in the queue, from its `pull_request_entered` to its leave. */
export interface Stay {
  readonly pullRequest: number;
  readonly queueName: string;
  readonly trigger: string;
  readonly headSha: string;
  readonly enteredAt: number;
  /** Index of the enter event in the stream. */
  readonly from: number;
  /** Index of the leave event, null while it is still queued. */
  to: number | null;
  leftAt: number | null;
  merged: boolean;
  dequeueCode: string | null;
  reason: string | null;
  leftHeadSha: string | null;
  /** The most pull requests queued beside it at any moment of the stay. */
  mostAlongside: number;
  /** Runs of checks it rode in (draft batches and in place). */
  checksRuns: number;
  /** Things that can tear its checks down without any conclusion: other leaves, pauses, freezes, base moves. */
  disruptions: number;
  /** Merges the code host postponed (each retried after up to 60 s). */
  postponedMerges: number;
}

const ms = (value: unknown) => Date.parse(String(value));
const numbersOf = (value: unknown) => ((value ?? []) as { number: number }[]).map((pr) => pr.number);

/** The stays of every pull request, in the order they began. */
export function staysOf(events: readonly QueueEvent[]): Stay[] {
  const stays: Stay[] = [];
  const open = new Map<number, Stay>();
  events.forEach((event, index) => {
    const data = event.data;
    switch (event.type) {
      case 'merge_queue.pull_request_entered': {
        const stay: Stay = {
          pullRequest: data.pullRequest as number,
          queueName: String(data.queueName),
          trigger: String(data.trigger),
          headSha: String(data.headSha),
          enteredAt: ms(data.occurredAt),
          from: index,
          to: null,
          leftAt: null,
          merged: false,
          dequeueCode: null,
          reason: null,
          leftHeadSha: null,
          mostAlongside: open.size,
          checksRuns: 0,
          disruptions: 0,
          postponedMerges: 0,
        };
        for (const other of open.values()) other.mostAlongside = Math.max(other.mostAlongside, open.size);
        open.set(stay.pullRequest, stay);
        stays.push(stay);
        return;
      }
      case 'merge_queue.pull_request_left': {
        const stay = open.get(data.pullRequest as number);
        if (!stay) return;
        open.delete(stay.pullRequest);
        stay.to = index;
        stay.leftAt = ms(data.occurredAt);
        stay.merged = data.merged === true;
        stay.dequeueCode = (data.dequeueCode as string | null) ?? null;
        stay.reason = String(data.reason);
        stay.leftHeadSha = String(data.pullRequestHeadSha);
        for (const other of open.values()) other.disruptions += 1;
        return;
      }
      case 'merge_queue.checks_started':
        for (const number of numbersOf(data.pullRequests)) {
          const stay = open.get(number);
          if (stay) stay.checksRuns += 1;
        }
        return;
      case 'merge_queue.merge_postponed': {
        const stay = open.get(data.pullRequest as number);
        if (stay) stay.postponedMerges += 1;
        return;
      }
      case 'merge_queue.pause_observed':
      case 'merge_queue.freeze_observed':
      case 'merge_queue.base_moved':
      case 'merge_queue.configuration_applied':
      case 'merge_queue.priority_changed':
        for (const stay of open.values()) stay.disruptions += 1;
        return;
      default:
        return;
    }
  });
  return stays;
}

import type { ChecksStarted, MergeQueueEvent, PullRequestEntered, PullRequestLeft } from './events';
import type { StatusCommentsLevel } from './policy';

export interface StatusComment {
  pullRequest: number;
  body: string;
}

const HEADING = '**Merge queue**';

/**
 * The comments the queue posts on pull requests for one of its events, as the setting asks (Mergify's
 * semantics): `all` comments when a pull request enters the queue, each time checks start for it
 * (CI progress) and when it leaves; `outcomes` only when it leaves (merged, or dequeued with the
 * reason); `none` never. Pure: the reactor posts them through the code host.
 */
export function statusCommentsFor(
  event: Pick<MergeQueueEvent, 'type' | 'data'>,
  level: StatusCommentsLevel,
): StatusComment[] {
  if (level === 'none') return [];
  switch (event.type) {
    case 'merge_queue.pull_request_left': {
      const left = event.data as PullRequestLeft['data'];
      const body = left.merged
        ? `${HEADING}: ✅ merged into \`${left.baseRef}\` by the queue \`${left.queueName}\`.`
        : `${HEADING}: ❌ dequeued from \`${left.queueName}\`: ${left.reason}`;
      return [{ pullRequest: left.pullRequest, body }];
    }
    case 'merge_queue.pull_request_entered': {
      if (level !== 'all') return [];
      const entered = event.data as PullRequestEntered['data'];
      return [
        {
          pullRequest: entered.pullRequest,
          body: `${HEADING}: 🟠 queued in \`${entered.queueName}\` (${entered.trigger}).`,
        },
      ];
    }
    case 'merge_queue.checks_started': {
      if (level !== 'all') return [];
      const started = event.data as ChecksStarted['data'];
      const numbers = started.pullRequests.map((pr) => pr.number);
      const where = started.speculativeCheck.inPlace
        ? 'on its own head (in place)'
        : `on draft #${started.speculativeCheck.number}`;
      return numbers.map((number) => {
        const others = numbers.filter((other) => other !== number);
        const together = others.length > 0 ? `, together with ${others.map((n) => `#${n}`).join(', ')}` : '';
        const retry = started.attempt > 0 ? ` (retry ${started.attempt})` : '';
        return { pullRequest: number, body: `${HEADING}: 🔄 checks started ${where}${together}${retry}.` };
      });
    }
    default:
      return [];
  }
}

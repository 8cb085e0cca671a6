import type { ChecksStarted, MergeQueueEvent, PullRequestEntered, PullRequestLeft } from './events';
import type { StatusCommentsLevel } from './policy';
import { holdsRulesBack, needsCommand } from './requeue';

/** What one of the queue's events has to say on one pull request: one line of its status comment. */
export interface StatusLine {
  pullRequest: number;
  /** The line, without the heading. */
  line: string;
}

const HEADING = '**Merge queue**';
const MARKER = 'switchyard:merge-queue-status';
const MARKER_LINE = /^<!-- switchyard:merge-queue-status(?: event=(\S+))? -->$/;
const EARLIER = 'Earlier:';
/** Earlier lines kept beneath the current one; the oldest go first when there are more. */
export const STATUS_HISTORY_LIMIT = 10;
const OMITTED = '- …';

/**
 * The lines the queue says on pull requests for one of its events, as the setting asks (Mergify's
 * semantics): `all` speaks when a pull request enters the queue, each time checks start for it (CI
 * progress) and when it leaves; `outcomes` only when it leaves (merged, or dequeued with the
 * reason); `none` never. Pure: the reactor writes them into each pull request's status comment.
 */
export function statusLinesFor(
  event: Pick<MergeQueueEvent, 'type' | 'data'>,
  level: StatusCommentsLevel,
): StatusLine[] {
  if (level === 'none') return [];
  switch (event.type) {
    case 'merge_queue.pull_request_left': {
      const left = event.data as PullRequestLeft['data'];
      const line = left.merged
        ? `✅ merged into \`${left.baseRef}\` by the queue \`${left.queueName}\`.`
        : `❌ dequeued from \`${left.queueName}\`: ${sentence(left.reason)}${howToRequeue(left)}`;
      return [{ pullRequest: left.pullRequest, line }];
    }
    case 'merge_queue.pull_request_entered': {
      if (level !== 'all') return [];
      const entered = event.data as PullRequestEntered['data'];
      return [
        {
          pullRequest: entered.pullRequest,
          line: `🟠 queued in \`${entered.queueName}\` (${entered.trigger}).`,
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
        return { pullRequest: number, line: `🔄 checks started ${where}${together}${retry}.` };
      });
    }
    default:
      return [];
  }
}

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * After a leave that holds queue rules back (requeue.ts), how to queue the pull request again: the
 * rules will not while nothing changed.
 */
function howToRequeue(left: PullRequestLeft['data']): string {
  if (left.dequeueCode === null || !holdsRulesBack(left.dequeueCode)) return '';
  if (needsCommand(left.dequeueCode)) return ' Comment `@mergify queue` to queue it again.';
  return (
    ' A queue rule will not queue it again until its head changes: push a fix, or comment' +
    ' `@mergify queue` to queue it again as it is.'
  );
}

/** Whether a comment's body is the queue's status comment (its first line is the hidden marker). */
export function isStatusComment(body: string): boolean {
  return MARKER_LINE.test(firstLine(body));
}

/**
 * The body of a pull request's one status comment once `line` (said for the event `eventId`) is
 * added: the new line first, under the heading, then the earlier lines, newest first, at most
 * STATUS_HISTORY_LIMIT of them. The first line is a hidden marker naming the event last written,
 * so the reactor finds the comment again after a restart and never writes one event twice: null
 * when `previous` already says it (nothing to do).
 */
export function statusCommentBody(previous: string | null, line: string, eventId: string): string | null {
  const before = previous === null ? null : readStatusComment(previous);
  if (before?.eventId === eventId) return null;
  const earlier = before === null || before.current === null ? [] : [before.current, ...before.earlier];
  const kept = earlier.slice(0, STATUS_HISTORY_LIMIT);
  const omitted = earlier.length > kept.length || (before?.omitted ?? false);
  const history =
    kept.length === 0
      ? []
      : ['', EARLIER, ...kept.map((earlierLine) => `- ${earlierLine}`), ...(omitted ? [OMITTED] : [])];
  // One line each: a reason over several lines would read back as more than one entry.
  const single = line.replace(/\s*\r?\n\s*/g, ' ');
  return [`<!-- ${MARKER} event=${eventId} -->`, `${HEADING}: ${single}`, ...history].join('\n');
}

interface ReadStatusComment {
  eventId: string | null;
  current: string | null;
  earlier: string[];
  omitted: boolean;
}

/** Reads back what statusCommentBody wrote; lines it did not write (an edit by hand) are left out. */
function readStatusComment(body: string): ReadStatusComment | null {
  const lines = body.split(/\r?\n/);
  const marker = MARKER_LINE.exec(lines[0]!.trim());
  if (!marker) return null;
  const current = lines.find((text) => text.startsWith(`${HEADING}: `))?.slice(HEADING.length + 2) ?? null;
  const from = lines.indexOf(EARLIER);
  const listed = from < 0 ? [] : lines.slice(from + 1).filter((text) => text.startsWith('- '));
  return {
    eventId: marker[1] ?? null,
    current,
    earlier: listed.filter((text) => text !== OMITTED).map((text) => text.slice(2)),
    omitted: listed.includes(OMITTED),
  };
}

const firstLine = (body: string): string => body.split(/\r?\n/, 1)[0]!.trim();

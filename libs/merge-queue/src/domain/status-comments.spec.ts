import type { ChecksStarted, DequeueCode, PullRequestEntered, PullRequestLeft } from './events';
import { statusCommentsOf, defaultMergeQueuePolicy } from './policy';
import { isStatusComment, STATUS_HISTORY_LIMIT, statusCommentBody, statusLinesFor } from './status-comments';

const where = { repository: 'acme/widgets', baseRef: 'main', occurredAt: '2026-03-02T10:00:00.000Z' };
const queued = (number: number) => ({
  number,
  queuedAt: '2026-03-02T10:00:00.000Z',
  priorityRuleName: null,
  sessionId: `s${number}`,
});

const entered: PullRequestEntered = {
  type: 'merge_queue.pull_request_entered',
  data: {
    ...where,
    trigger: 'Command: queue',
    queueName: 'default',
    partitionName: '__default__',
    pullRequest: 7,
    queuedAt: '2026-03-02T10:00:00.000Z',
    priorityRuleName: null,
    sessionId: 's7',
    priority: 2000,
    allowCheckInterruption: false,
    scopes: [],
    allScopes: false,
    dependsOn: [],
    headSha: 'head-7',
  },
};

const started = (inPlace: boolean, numbers: number[], attempt = 0): ChecksStarted => ({
  type: 'merge_queue.checks_started',
  data: {
    ...where,
    trigger: 'merge queue internal',
    queueName: 'default',
    partitionName: '__default__',
    trainCarId: 'car-1',
    attempt,
    startReason: 'First time checking',
    speculativeCheck: {
      number: inPlace ? numbers[0]! : 100,
      inPlace,
      checksTimedOut: false,
      checksConclusion: 'pending',
      checksStartedAt: null,
      checksEndedAt: null,
      unsuccessfulChecks: [],
    },
    pullRequests: numbers.map(queued),
  },
});

const left = (
  merged: boolean,
  code: DequeueCode = merged ? 'PR_MERGED' : 'CHECKS_FAILED',
): PullRequestLeft => ({
  type: 'merge_queue.pull_request_left',
  data: {
    ...where,
    trigger: 'merge queue internal',
    queueName: 'default',
    partitionName: '__default__',
    pullRequest: 7,
    reason: merged ? 'Pull request #7 has been merged' : 'Checks failed: ci',
    merged,
    dequeueCode: code,
    queuedAt: '2026-03-02T10:00:00.000Z',
    secondsWaitingForSchedule: 0,
    secondsWaitingForFreeze: 0,
    priorityRuleName: null,
    conditionsEvaluation: null,
    checks: [],
    unsuccessfulChecks: [],
    pullRequestHeadSha: 'head-7',
    sessionId: 's7',
  },
});

describe('status lines (merge_queue.status_comments)', () => {
  it('all: entering the queue, each start of checks (one line per pull request of the batch) and leaving', () => {
    expect(statusLinesFor(entered, 'all')).toEqual([
      { pullRequest: 7, line: '🟠 queued in `default` (Command: queue).' },
    ]);
    expect(statusLinesFor(started(false, [7, 8], 1), 'all')).toEqual([
      { pullRequest: 7, line: '🔄 checks started on draft #100, together with #8 (retry 1).' },
      { pullRequest: 8, line: '🔄 checks started on draft #100, together with #7 (retry 1).' },
    ]);
    expect(statusLinesFor(started(true, [7]), 'all')).toEqual([
      { pullRequest: 7, line: '🔄 checks started on its own head (in place).' },
    ]);
    expect(statusLinesFor(left(true), 'all')).toEqual([
      { pullRequest: 7, line: '✅ merged into `main` by the queue `default`.' },
    ]);
  });

  it('outcomes: only when the pull request leaves, merged or dequeued with the reason', () => {
    expect(statusLinesFor(entered, 'outcomes')).toEqual([]);
    expect(statusLinesFor(started(false, [7]), 'outcomes')).toEqual([]);
    expect(statusLinesFor(left(true), 'outcomes')).toHaveLength(1);
    expect(statusLinesFor(left(false), 'outcomes')).toEqual([
      {
        pullRequest: 7,
        line:
          '❌ dequeued from `default`: Checks failed: ci. A queue rule will not queue it again until its head' +
          ' changes: push a fix, or comment `@mergify queue` to queue it again as it is.',
      },
    ]);
  });

  it('says how to queue it again after a leave that holds rules back, and nothing more after others', () => {
    const line = (code: DequeueCode) => statusLinesFor(left(false, code), 'outcomes')[0]!.line;
    for (const code of ['CHECKS_TIMEOUT', 'CONFLICT_WITH_BASE_BRANCH', 'CONFLICT_WITH_PULL_AHEAD'] as const)
      expect(line(code)).toContain('until its head changes: push a fix, or comment `@mergify queue`');
    expect(line('PR_MANUALLY_DEQUEUED')).toBe(
      '❌ dequeued from `default`: Checks failed: ci. Comment `@mergify queue` to queue it again.',
    );
    // Queue conditions that stopped holding, or a new head: the rule queues it again by itself.
    expect(line('PR_DEQUEUED')).toBe('❌ dequeued from `default`: Checks failed: ci.');
    expect(line('PULL_REQUEST_UPDATED')).toBe('❌ dequeued from `default`: Checks failed: ci.');
  });

  it('none: never; other events: never', () => {
    for (const event of [entered, started(false, [7]), left(true), left(false)])
      expect(statusLinesFor(event, 'none')).toEqual([]);
    expect(
      statusLinesFor({ type: 'merge_queue.queue_size_changed', data: { ...where, size: 1 } } as never, 'all'),
    ).toEqual([]);
  });

  it('a policy recorded before the setting existed comments as the default, all', () => {
    const { statusComments: _dropped, ...recordedBefore } = defaultMergeQueuePolicy();
    expect(statusCommentsOf(recordedBefore as never)).toBe('all');
    expect(statusCommentsOf({ ...defaultMergeQueuePolicy(), statusComments: 'none' })).toBe('none');
  });
});

describe('the status comment body (one comment per pull request, edited)', () => {
  const lineOf = (event: Parameters<typeof statusLinesFor>[0]) => statusLinesFor(event, 'all')[0]!.line;

  it('the first line makes a body: the hidden marker naming the event, then the state under the heading', () => {
    const body = statusCommentBody(null, lineOf(entered), 'event-1');
    expect(body).toBe(
      '<!-- switchyard:merge-queue-status event=event-1 -->\n**Merge queue**: 🟠 queued in `default` (Command: queue).',
    );
    expect(isStatusComment(body!)).toBe(true);
  });

  it('each later line goes first; the earlier ones stay beneath it, newest first', () => {
    const queued = statusCommentBody(null, lineOf(entered), 'event-1')!;
    const checking = statusCommentBody(queued, lineOf(started(true, [7])), 'event-2')!;
    const merged = statusCommentBody(checking, lineOf(left(true)), 'event-3');
    expect(merged).toBe(
      [
        '<!-- switchyard:merge-queue-status event=event-3 -->',
        '**Merge queue**: ✅ merged into `main` by the queue `default`.',
        '',
        'Earlier:',
        '- 🔄 checks started on its own head (in place).',
        '- 🟠 queued in `default` (Command: queue).',
      ].join('\n'),
    );
  });

  it('the same event written again changes nothing (a reaction run again after a crash)', () => {
    const queued = statusCommentBody(null, lineOf(entered), 'event-1')!;
    expect(statusCommentBody(queued, lineOf(entered), 'event-1')).toBeNull();
    const checking = statusCommentBody(queued, lineOf(started(true, [7])), 'event-2')!;
    expect(statusCommentBody(checking, lineOf(started(true, [7])), 'event-2')).toBeNull();
  });

  it(`keeps the ${STATUS_HISTORY_LIMIT} newest earlier lines and says that older ones were left out`, () => {
    let body = statusCommentBody(null, 'line 0', 'event-0')!;
    for (let n = 1; n <= STATUS_HISTORY_LIMIT + 3; n++)
      body = statusCommentBody(body, `line ${n}`, `event-${n}`)!;
    const lines = body.split('\n');
    expect(lines[1]).toBe(`**Merge queue**: line ${STATUS_HISTORY_LIMIT + 3}`);
    const earlier = lines.slice(lines.indexOf('Earlier:') + 1);
    expect(earlier).toHaveLength(STATUS_HISTORY_LIMIT + 1);
    expect(earlier[0]).toBe(`- line ${STATUS_HISTORY_LIMIT + 2}`);
    expect(earlier.at(-2)).toBe('- line 3');
    expect(earlier.at(-1)).toBe('- …');
  });

  it('a reason over several lines stays one line, so the history reads back as written', () => {
    const dequeued = statusCommentBody(null, 'dequeued: checks failed\n\n- ci\n- lint', 'event-1')!;
    const next = statusCommentBody(dequeued, lineOf(entered), 'event-2')!;
    expect(next.split('\n').slice(-2)).toEqual(['Earlier:', '- dequeued: checks failed - ci - lint']);
  });

  it('a comment without the marker on its first line is not the status comment', () => {
    expect(isStatusComment('**Merge queue**: 🟠 queued in `default` (Command: queue).')).toBe(false);
    expect(isStatusComment('@mergify queue\n<!-- switchyard:merge-queue-status -->')).toBe(false);
    expect(isStatusComment('<!-- switchyard:merge-queue-status -->\nedited by hand')).toBe(true);
  });

  it('a body edited by hand keeps only what the queue wrote: its own lines, as history', () => {
    const edited = '<!-- switchyard:merge-queue-status -->\n**Merge queue**: 🟠 queued.\nplease hurry';
    expect(statusCommentBody(edited, 'merged.', 'event-9')).toBe(
      '<!-- switchyard:merge-queue-status event=event-9 -->\n**Merge queue**: merged.\n\nEarlier:\n- 🟠 queued.',
    );
  });
});

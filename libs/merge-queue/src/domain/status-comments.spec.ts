import type { ChecksStarted, PullRequestEntered, PullRequestLeft } from './events';
import { statusCommentsOf, defaultMergeQueuePolicy } from './policy';
import { statusCommentsFor } from './status-comments';

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

const left = (merged: boolean): PullRequestLeft => ({
  type: 'merge_queue.pull_request_left',
  data: {
    ...where,
    trigger: 'merge queue internal',
    queueName: 'default',
    partitionName: '__default__',
    pullRequest: 7,
    reason: merged ? 'Pull request #7 has been merged' : 'Checks failed: ci',
    merged,
    dequeueCode: merged ? 'PR_MERGED' : 'CHECKS_FAILED',
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

describe('status comments (merge_queue.status_comments)', () => {
  it('all: entering the queue, each start of checks (one comment per pull request of the batch) and leaving', () => {
    expect(statusCommentsFor(entered, 'all')).toEqual([
      { pullRequest: 7, body: '**Merge queue**: 🟠 queued in `default` (Command: queue).' },
    ]);
    expect(statusCommentsFor(started(false, [7, 8], 1), 'all')).toEqual([
      {
        pullRequest: 7,
        body: '**Merge queue**: 🔄 checks started on draft #100, together with #8 (retry 1).',
      },
      {
        pullRequest: 8,
        body: '**Merge queue**: 🔄 checks started on draft #100, together with #7 (retry 1).',
      },
    ]);
    expect(statusCommentsFor(started(true, [7]), 'all')).toEqual([
      { pullRequest: 7, body: '**Merge queue**: 🔄 checks started on its own head (in place).' },
    ]);
    expect(statusCommentsFor(left(true), 'all')).toEqual([
      { pullRequest: 7, body: '**Merge queue**: ✅ merged into `main` by the queue `default`.' },
    ]);
  });

  it('outcomes: only when the pull request leaves, merged or dequeued with the reason', () => {
    expect(statusCommentsFor(entered, 'outcomes')).toEqual([]);
    expect(statusCommentsFor(started(false, [7]), 'outcomes')).toEqual([]);
    expect(statusCommentsFor(left(true), 'outcomes')).toHaveLength(1);
    expect(statusCommentsFor(left(false), 'outcomes')).toEqual([
      { pullRequest: 7, body: '**Merge queue**: ❌ dequeued from `default`: Checks failed: ci' },
    ]);
  });

  it('none: never; other events: never', () => {
    for (const event of [entered, started(false, [7]), left(true), left(false)])
      expect(statusCommentsFor(event, 'none')).toEqual([]);
    expect(
      statusCommentsFor(
        { type: 'merge_queue.queue_size_changed', data: { ...where, size: 1 } } as never,
        'all',
      ),
    ).toEqual([]);
  });

  it('a policy recorded before the setting existed comments as the default, all', () => {
    const { statusComments: _dropped, ...recordedBefore } = defaultMergeQueuePolicy();
    expect(statusCommentsOf(recordedBefore as never)).toBe('all');
    expect(statusCommentsOf({ ...defaultMergeQueuePolicy(), statusComments: 'none' })).toBe('none');
  });
});

import { DomainError } from '@switchyard/kernel';
import { DeciderSpecification } from '@switchyard/testing';
import {
  batchOf,
  checksEnds,
  checksReported,
  command,
  compositions,
  configure,
  draftCreated,
  effectsOf,
  enqueue,
  isoAt,
  leaves,
  policyWith,
  run,
  stateOf,
  types,
} from '../testing/queue-commands';
import { mergeQueueDecider } from './decider';
import type { MergeQueueEvent } from './events';

const spec = DeciderSpecification.for(mergeQueueDecider);
/** given(history).when(command): the events the decision produces. */
const when = (history: MergeQueueEvent[], next: Parameters<typeof mergeQueueDecider.decide>[0]) =>
  run([next], stateOf(history)).events;

const where = (atMinutes: number, trigger = 'merge queue internal') => ({
  repository: 'acme/mono',
  baseRef: 'main',
  trigger,
  occurredAt: isoAt(atMinutes),
});

/** A queue with the given policy and pull requests entered at minute 0, and what they lead to. */
const given = (policy = policyWith(), ...pullRequests: number[]) =>
  run([configure(policy), ...pullRequests.map((n) => enqueue(n, 0))]).events;

describe('merge queue: entering and batching', () => {
  it('a pull request entering an idle queue is batched at once and its draft requested', () => {
    const history = run([configure(policyWith())]).events;
    const events = when(history, enqueue(1, 0));
    expect(types(events)).toEqual([
      'merge_queue.pull_request_entered',
      'merge_queue.queue_size_changed',
      'merge_queue.batch_composed',
      'merge_queue.batch_preparing',
    ]);
    expect(events[0]).toEqual({
      type: 'merge_queue.pull_request_entered',
      data: expect.objectContaining({
        ...where(0, 'Rule: automatic merge'),
        pullRequest: 1,
        queueName: 'default',
        partitionName: '__default__',
        queuedAt: isoAt(0),
        sessionId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/),
      }),
    });
    expect(events[1]!.data).toMatchObject({ size: 1 });
    expect(events[3]!.data).toMatchObject({ checkMethod: 'draft_pr', attempt: 0 });
    expect((events[3]!.data as { branch: string }).branch).toMatch(/^mergify\/merge-queue\/[0-9a-f]{10}$/);
  });

  it('a pull request already queued is not queued twice', () => {
    spec.given(given(policyWith(), 1)).when(enqueue(1, 1)).thenNothingHappened();
  });

  it('an unknown queue rule is refused', () => {
    spec
      .given(given())
      .when(enqueue(1, 0, { queueName: 'nope' }))
      .thenThrows(DomainError, /no queue rule named "nope"/);
  });

  it('a batch that is not full waits batch_max_wait_time from its first pull request, then starts', () => {
    const policy = policyWith({ maxParallelChecks: 1 }, { batchSize: 3, batchMaxWaitTime: 60 });
    const history = given(policy, 1, 2);
    expect(compositions(history)).toEqual([]);
    expect(types(when(history, command('tick', 0.9, {})))).toEqual([]);
    const events = when(history, command('tick', 1, {}));
    expect(compositions(events)).toEqual([[1, 2]]);
    expect(events.find((e) => e.type === 'merge_queue.batch_composed')!.data).toMatchObject({
      batchReason: 'queue_order',
      parentIds: [],
    });
  });

  it('a full batch starts without waiting', () => {
    const policy = policyWith({ maxParallelChecks: 1 }, { batchSize: 2, batchMaxWaitTime: 600 });
    expect(compositions(given(policy, 1, 2, 3))).toEqual([[1, 2]]);
  });

  it('orders by priority, then queue time (§2.1)', () => {
    const policy = policyWith({ maxParallelChecks: 1 }, { batchSize: 2, batchMaxWaitTime: 60 });
    const { events } = run([
      configure(policy),
      enqueue(1, 0),
      enqueue(2, 0.1, { priority: 3000, priorityRuleName: 'hotfix' }),
      enqueue(3, 0.2),
      command('tick', 1, {}),
    ]);
    expect(compositions(events)).toEqual([[2, 1]]);
  });

  it('runs up to max_parallel_checks speculative batches, each on top of the one ahead', () => {
    const events = given(policyWith({ maxParallelChecks: 2 }), 1, 2, 3);
    expect(compositions(events)).toEqual([[1], [2]]);
    const second = events.filter((e) => e.type === 'merge_queue.batch_composed')[1]!;
    const first = events.find((e) => e.type === 'merge_queue.batch_composed')!;
    expect(second.data).toMatchObject({ parentIds: [(first.data as { trainCarId: string }).trainCarId] });
  });

  it('sizes a {min, max} batch from the backlog spread over the free slots (§2.2)', () => {
    const policy = policyWith({ maxParallelChecks: 5 }, { batchSize: { min: 1, max: 2 } });
    const backlog = (count: number) =>
      run([
        configure(policy),
        command('set_pause', 0, { paused: true, reason: 'backlog' }),
        ...Array.from({ length: count }, (_, i) => enqueue(i + 1, 0)),
        command('set_pause', 1, { paused: false, reason: null }),
      ]).events;
    expect(compositions(backlog(3))).toEqual([[1], [2], [3]]);
    expect(compositions(backlog(10))).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
      [9, 10],
    ]);
  });

  it('checks in place only with one check at a time, single pull requests and no retries (§2.3)', () => {
    const inPlace = given(policyWith({ maxParallelChecks: 1 }), 1);
    expect(effectsOf(inPlace, 0)).toEqual([
      expect.objectContaining({ kind: 'update_in_place', pullRequest: 1, updateMethod: 'merge' }),
    ]);
    const retries = given(policyWith({ maxParallelChecks: 1 }, { maxChecksRetries: 1 }), 1);
    expect(effectsOf(retries, 0)).toEqual([
      expect.objectContaining({ kind: 'create_draft', pullRequests: [1] }),
    ]);
  });

  it('asks for a draft holding the batches ahead and its own pull requests, in order', () => {
    const events = given(policyWith({ maxParallelChecks: 2 }), 1, 2);
    expect(effectsOf(events, 0).map((e) => (e.kind === 'create_draft' ? e.pullRequests : null))).toEqual([
      [1],
      [1, 2],
    ]);
  });
});

describe('merge queue: checks and merges', () => {
  const started = () => {
    const history = given(policyWith({ maxParallelChecks: 2 }), 1, 2);
    return [...history, ...when(history, draftCreated(history, 1, 1, 901))];
  };

  it('logs checks_start when the draft exists', () => {
    const events = started();
    const start = events.find((e) => e.type === 'merge_queue.checks_started')!;
    expect(start.data).toMatchObject({
      trainCarId: batchOf(events, 1).id,
      attempt: 0,
      startReason: 'Checking on top of the base branch',
      speculativeCheck: { number: 901, inPlace: false, checksConclusion: 'pending', checksTimedOut: false },
      pullRequests: [expect.objectContaining({ number: 1 })],
    });
  });

  it('ignores a result for an attempt that is over', () => {
    const events = started();
    const stale = { ...checksReported(events, 1, 30, 'success'), attempt: 7 };
    spec.given(events).when(stale).thenNothingHappened();
  });

  it('closes a draft that arrives for a batch that is gone', () => {
    const events = started();
    const orphan = { ...draftCreated(events, 2, 2, 999), batchId: 'gone' };
    spec
      .given(events)
      .when(orphan)
      .then([{ type: 'merge_queue.draft_orphaned', data: { ...where(2), checkPullRequest: 999 } }]);
  });

  it('a passing batch ends its checks and is merged once nothing is ahead (§2.7)', () => {
    const history = started();
    const events = when(history, checksReported(history, 1, 30, 'success'));
    expect(checksEnds(events)).toEqual([[[1], null, 'DEFINITIVE']]);
    const all = [...history, ...events];
    expect(effectsOf(all, 30)).toContainEqual(
      expect.objectContaining({ kind: 'merge', pullRequest: 1, method: 'merge', headSha: 'head-1' }),
    );
  });

  it('a merged pull request leaves with PR_MERGED and its draft is closed', () => {
    const history = started();
    const passed = [...history, ...when(history, checksReported(history, 1, 30, 'success'))];
    const events = when(passed, command('merged', 31, { pullRequest: 1, mergeCommitSha: 'm1' }));
    expect(types(events)).toEqual([
      'merge_queue.pull_request_merged',
      'merge_queue.pull_request_left',
      'merge_queue.queue_size_changed',
      'merge_queue.base_moved',
    ]);
    expect(leaves(events)).toEqual([[1, 'PR_MERGED']]);
    expect(events[1]!.data).toMatchObject({ merged: true, trigger: 'Rule: automatic merge' });
    expect(effectsOf([...passed, ...events], 31)).toContainEqual(
      expect.objectContaining({ kind: 'close_draft', checkPullRequest: 901 }),
    );
  });

  it('a merged pull request does not enter again: a snapshot read before its merge still shows it open', () => {
    const history = started();
    const passed = [...history, ...when(history, checksReported(history, 1, 30, 'success'))];
    const merged = [
      ...passed,
      ...when(passed, command('merged', 31, { pullRequest: 1, mergeCommitSha: 'm1' })),
    ];
    spec.given(merged).when(enqueue(1, 32)).thenNothingHappened();
  });

  it('a pull request merged outside the queue does not enter again either', () => {
    const history = given(policyWith(), 1);
    const merged = [
      ...history,
      ...when(history, command('merged_outside_queue', 5, { pullRequest: 1, sha: 'x' })),
    ];
    spec.given(merged).when(enqueue(1, 6)).thenNothingHappened();
  });

  it('a pull request behind a passed batch is not merged before it', () => {
    const history = started();
    const second = [...history, ...when(history, draftCreated(history, 2, 1, 902))];
    const passed = [...second, ...when(second, checksReported(second, 2, 30, 'success'))];
    expect(effectsOf(passed, 30).filter((e) => e.kind === 'merge')).toEqual([]);
  });

  it('merges the batch branch itself with merge-batch', () => {
    const history = run([
      configure(policyWith({}, { batchSize: 2, mergeMethod: 'merge-batch' })),
      enqueue(1, 0),
      enqueue(2, 0),
    ]).events;
    const created = [...history, ...when(history, draftCreated(history, 1, 1, 901))];
    const passed = [...created, ...when(created, checksReported(created, 1, 30, 'success'))];
    expect(effectsOf(passed, 30)).toContainEqual(
      expect.objectContaining({
        kind: 'merge_batch',
        method: 'merge-batch',
        pullRequests: [1, 2],
        branch: expect.stringMatching(/^mergify\/merge-queue\//),
      }),
    );
  });

  it('a failed merge that protections still block is tried again later; a refused one dequeues', () => {
    const history = started();
    const passed = [...history, ...when(history, checksReported(history, 1, 30, 'success'))];
    const pending = when(
      passed,
      command('merge_failed', 31, { pullRequest: 1, outcome: 'pending', message: 'blocked' }),
    );
    expect(pending).toEqual([
      {
        type: 'merge_queue.merge_postponed',
        data: { ...where(31), pullRequest: 1, retryAt: isoAt(32), message: 'blocked' },
      },
    ]);
    expect(effectsOf([...passed, ...pending], 31.5).filter((e) => e.kind === 'merge')).toEqual([]);
    expect(effectsOf([...passed, ...pending], 32).filter((e) => e.kind === 'merge')).toHaveLength(1);
    const refused = when(
      passed,
      command('merge_failed', 31, { pullRequest: 1, outcome: 'error', message: 'nope' }),
    );
    expect(leaves(refused)).toEqual([[1, 'PR_UNEXPECTEDLY_FAILED_TO_MERGE']]);
  });
});

describe('merge queue: user commands', () => {
  const origin = (name: string) => ({
    command: name,
    author: { login: 'alice', id: 7, type: 'User' as const },
    commentId: 42,
    commandTrigger: 'comment' as const,
    triggerCommentUrl: 'https://github.com/acme/mono/pull/1#issuecomment-42',
  });

  it('logs `@mergify queue` with the session it opens', () => {
    const history = run([configure(policyWith())]).events;
    const events = when(history, enqueue(1, 0, { trigger: 'Command: queue', origin: origin('queue') }));
    expect(types(events).slice(0, 2)).toEqual([
      'pull_request.command_received',
      'merge_queue.pull_request_entered',
    ]);
    expect(events[0]!.data).toMatchObject({ trigger: 'Command: queue', command: 'queue', commentId: 42 });
    expect((events[0]!.data as { sessionId: string }).sessionId).toBe(
      (events[1]!.data as { sessionId: string }).sessionId,
    );
  });

  it('logs a queue command on a queued pull request, and changes nothing else', () => {
    const history = given(policyWith(), 1);
    expect(types(when(history, enqueue(1, 1, { origin: origin('requeue') })))).toEqual([
      'pull_request.command_received',
    ]);
  });

  it('logs `@mergify dequeue` before the pull request leaves', () => {
    const history = given(policyWith(), 1);
    const events = when(
      history,
      command('dequeue', 1, {
        pullRequest: 1,
        code: 'PR_MANUALLY_DEQUEUED',
        reason: 'Dequeued by @alice',
        trigger: 'Command: dequeue',
        origin: origin('dequeue'),
      }),
    );
    expect(types(events)[0]).toBe('pull_request.command_received');
    expect(leaves(events)).toEqual([[1, 'PR_MANUALLY_DEQUEUED']]);
  });
});

describe('merge queue: a removal asked for through the API', () => {
  const request = (atMinutes: number, pullRequest = 1) =>
    command('request_dequeue', atMinutes, { pullRequest, trigger: 'API: dequeue' });

  it('records the request and keeps the pull request queued and in its batch until the dequeue', () => {
    const history = given(policyWith(), 1);
    const events = when(history, request(1));
    expect(events).toEqual([
      {
        type: 'merge_queue.dequeue_requested',
        data: { ...where(1, 'API: dequeue'), pullRequest: 1 },
      },
    ]);
    const state = stateOf([...history, ...events]);
    expect(state.pullRequests[1]).toMatchObject({ dequeueRequested: true, batchId: batchOf(history, 1).id });
  });

  it('records a repeated request once, and nothing for a pull request that is not queued', () => {
    const history = [...given(policyWith(), 1), ...when(given(policyWith(), 1), request(1))];
    expect(when(history, request(2))).toEqual([]);
    expect(when(history, request(2, 7))).toEqual([]);
  });
});

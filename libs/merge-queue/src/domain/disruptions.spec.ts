import {
  batchOf,
  checksEnds,
  checksReported,
  command,
  compositions,
  configure,
  effectsOf,
  enqueue,
  leaves,
  policyWith,
  run,
  stateOf,
  then,
  types,
  withDrafts,
  running,
  after,
} from '../testing/queue-commands';
import type { DequeueRequestCode } from './commands';
import type { MergeQueueEvent } from './events';
import type { QueuePolicy } from './policy';

const decide = (history: MergeQueueEvent[], next: Parameters<typeof then>[1]) =>
  after(history, then(history, next));

const dequeue = (pullRequest: number, at: number, code: DequeueRequestCode = 'PR_MANUALLY_DEQUEUED') =>
  command('dequeue', at, { pullRequest, code, reason: 'Removed', trigger: 'Command: dequeue' });

describe('merge queue: removals (§2.9)', () => {
  it('a manual dequeue ends its checks for good and restarts the batches behind with PR_AHEAD_DEQUEUED', () => {
    const history = running(policyWith({ maxParallelChecks: 3 }), 3);
    const events = decide(history, dequeue(2, 5));
    expect(checksEnds(events)).toEqual([
      [[3], 'PR_AHEAD_DEQUEUED', 'REEMBARKED'],
      [[2], 'PR_MANUALLY_DEQUEUED', 'DEFINITIVE'],
    ]);
    expect(leaves(events)).toEqual([[2, 'PR_MANUALLY_DEQUEUED']]);
    expect(events.find((e) => e.type === 'merge_queue.pull_request_left')!.data).toMatchObject({
      trigger: 'Command: dequeue',
      reason: 'Removed',
    });
    expect(compositions(events)).toEqual([[3]]);
  });

  it('removing one pull request of a batch re-embarks the others', () => {
    const history = running(policyWith({ maxParallelChecks: 1 }, { batchSize: 2 }), 2);
    const events = decide(history, dequeue(1, 5));
    expect(checksEnds(events)).toEqual([
      [[1], 'PR_MANUALLY_DEQUEUED', 'DEFINITIVE'],
      [[2], 'PR_AHEAD_DEQUEUED', 'REEMBARKED'],
    ]);
  });

  it.each<DequeueRequestCode>([
    'PR_DEQUEUED',
    'PULL_REQUEST_UPDATED',
    'BASE_BRANCH_CHANGED',
    'BASE_BRANCH_MISSING',
    'UNPROCESSABLE_PULL_REQUEST',
    'CONFIGURATION_CHANGED',
    'INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS',
  ])('an automatic removal keeps its reason: %s', (code) => {
    const history = running(policyWith(), 1);
    const events = decide(history, dequeue(1, 5, code));
    expect(leaves(events)).toEqual([[1, code]]);
    expect(checksEnds(events)).toEqual([[[1], code, 'DEFINITIVE']]);
  });

  it('dequeuing a stack predecessor cascades to its queued successors (§2.10)', () => {
    const { events: history } = run([
      configure(policyWith({ maxParallelChecks: 1 }, { batchSize: 3, batchMaxWaitTime: 600 })),
      enqueue(1, 0),
      enqueue(2, 0, { dependsOn: [1] }),
      enqueue(3, 0, { dependsOn: [2] }),
    ]);
    expect(leaves(decide(history, dequeue(1, 1)))).toEqual([
      [1, 'PR_MANUALLY_DEQUEUED'],
      [2, 'STACK_PREDECESSOR_DEQUEUED'],
      [3, 'STACK_PREDECESSOR_DEQUEUED'],
    ]);
  });

  it('a stacked pull request queues right behind its predecessor, even with a higher priority', () => {
    const stacked = run([
      configure(policyWith({ maxParallelChecks: 1 }, { batchSize: 2, batchMaxWaitTime: 600 })),
      command('set_pause', 0, { paused: true, reason: 'hold' }),
      enqueue(3, 0),
      enqueue(5, 0),
      enqueue(4, 1, { dependsOn: [3], priority: 3000 }),
      command('set_pause', 2, { paused: false, reason: null }),
    ]).events;
    expect(compositions(stacked)).toEqual([[3, 4]]);
  });
});

describe('merge queue: conflicts (§2.8)', () => {
  it('a conflict with the base dequeues with CONFLICT_WITH_BASE_BRANCH', () => {
    const history = run([configure(policyWith()), enqueue(1, 0)]).events;
    const batch = batchOf(history, 1);
    const events = decide(
      history,
      command('draft_failed', 1, {
        batchId: batch.id,
        attempt: 0,
        failure: { kind: 'conflict', pullRequest: 1, withBase: true },
      }),
    );
    expect(leaves(events)).toEqual([[1, 'CONFLICT_WITH_BASE_BRANCH']]);
  });

  it('a conflict with pull requests ahead holds it; when a blocker merges it leaves with CONFLICT_WITH_PULL_AHEAD', () => {
    const history = withDrafts(
      run([configure(policyWith({ maxParallelChecks: 2 })), enqueue(1, 0)]).events,
      1,
    );
    const second = then(history, enqueue(2, 2));
    const batch = batchOf(second, 2);
    const deferred = then(
      second,
      command('draft_failed', 3, {
        batchId: batch.id,
        attempt: 0,
        failure: { kind: 'conflict', pullRequest: 2, withBase: false },
      }),
    );
    const held = after(second, deferred);
    expect(types(held)).toContain('merge_queue.conflict_deferred');
    expect(held.find((e) => e.type === 'merge_queue.conflict_deferred')!.data).toMatchObject({
      pullRequest: 2,
      blockingPullRequests: [1],
    });
    expect(compositions(held)).toEqual([]);
    const passed = then(deferred, checksReported(deferred, 1, 30, 'success'));
    const merged = decide(passed, command('merged', 31, { pullRequest: 1, mergeCommitSha: 'm1' }));
    expect(leaves(merged)).toEqual([
      [1, 'PR_MERGED'],
      [2, 'CONFLICT_WITH_PULL_AHEAD'],
    ]);
  });

  it('a held pull request goes back into a batch when its blocker leaves unmerged', () => {
    const history = withDrafts(
      run([configure(policyWith({ maxParallelChecks: 2 })), enqueue(1, 0)]).events,
      1,
    );
    const second = then(history, enqueue(2, 2));
    const deferred = then(
      second,
      command('draft_failed', 3, {
        batchId: batchOf(second, 2).id,
        attempt: 0,
        failure: { kind: 'conflict', pullRequest: 2, withBase: false },
      }),
    );
    expect(compositions(decide(deferred, dequeue(1, 4)))).toEqual([[2]]);
  });
});

describe('merge queue: the code host disturbs a batch', () => {
  const prepared = () =>
    run([configure(policyWith({ maxParallelChecks: 1 }, { batchSize: 2 })), enqueue(1, 0), enqueue(2, 0)])
      .events;
  const failure = (history: MergeQueueEvent[], kind: 'not_indexed' | 'error' | 'branch_update_failed') =>
    command('draft_failed', 1, {
      batchId: batchOf(history, 1).id,
      attempt: 0,
      failure: kind === 'not_indexed' ? { kind } : { kind, message: 'boom' },
    });

  it('a branch the code host has not indexed yet postpones the checks', () => {
    const history = prepared();
    const events = decide(history, failure(history, 'not_indexed'));
    expect(types(events).filter((t) => t === 'merge_queue.checks_postponed')).toHaveLength(2);
    expect(compositions(events)).toEqual([[1, 2]]);
  });

  it('a draft that cannot be created dequeues its pull requests with DRAFT_PULL_REQUEST_CREATION_FAILED', () => {
    const history = prepared();
    expect(leaves(decide(history, failure(history, 'error')))).toEqual([
      [1, 'DRAFT_PULL_REQUEST_CREATION_FAILED'],
      [2, 'DRAFT_PULL_REQUEST_CREATION_FAILED'],
    ]);
  });

  it('an in-place update that fails dequeues with BRANCH_UPDATE_FAILED', () => {
    const history = run([configure(policyWith({ maxParallelChecks: 1 })), enqueue(1, 0)]).events;
    expect(leaves(decide(history, failure(history, 'branch_update_failed')))).toEqual([
      [1, 'BRANCH_UPDATE_FAILED'],
    ]);
  });

  it('a foreign push to the draft dequeues its pull requests with DRAFT_PULL_REQUEST_CHANGED', () => {
    const history = withDrafts(prepared(), 1);
    const events = decide(history, command('draft_tampered', 5, { checkPullRequest: 900, how: 'pushed' }));
    expect(leaves(events)).toEqual([
      [1, 'DRAFT_PULL_REQUEST_CHANGED'],
      [2, 'DRAFT_PULL_REQUEST_CHANGED'],
    ]);
  });

  it('a closed draft re-embarks its pull requests with BATCH_PULL_REQUEST_CLOSED', () => {
    const history = withDrafts(prepared(), 1);
    const events = decide(history, command('draft_tampered', 5, { checkPullRequest: 900, how: 'closed' }));
    expect(checksEnds(events)).toEqual([[[1, 2], 'BATCH_PULL_REQUEST_CLOSED', 'REEMBARKED']]);
    expect(compositions(events)).toEqual([[1, 2]]);
  });
});

describe('merge queue: base branch moves', () => {
  it('an external push resets every batch with MERGE_QUEUE_RESET', () => {
    const history = running(policyWith({ maxParallelChecks: 2 }), 2);
    const events = decide(history, command('base_moved', 5, { sha: 'external' }));
    expect(checksEnds(events)).toEqual([
      [[2], 'MERGE_QUEUE_RESET', 'REEMBARKED'],
      [[1], 'MERGE_QUEUE_RESET', 'REEMBARKED'],
    ]);
    expect(compositions(events)).toEqual([[1], [2]]);
  });

  it('reset_on_external_merge: never leaves the batches alone', () => {
    const history = running(policyWith({ maxParallelChecks: 2, resetOnExternalMerge: 'never' }), 2);
    expect(types(decide(history, command('base_moved', 5, { sha: 'external' })))).toEqual([
      'merge_queue.base_moved',
    ]);
  });

  it("the queue's own merge arriving as a push is no external move", () => {
    const history = running(policyWith({ maxParallelChecks: 2 }), 2);
    const passed = then(history, checksReported(history, 1, 30, 'success'));
    const merged = then(passed, command('merged', 31, { pullRequest: 1, mergeCommitSha: 'm1' }));
    expect(decide(merged, command('base_moved', 32, { sha: 'm1' }))).toEqual([]);
  });

  it('a pull request merged by someone else leaves with PR_MANUALLY_MERGED and the queue resets', () => {
    const history = running(policyWith({ maxParallelChecks: 2 }), 2);
    const events = decide(history, command('merged_outside_queue', 5, { pullRequest: 1, sha: 'x' }));
    expect(leaves(events)).toEqual([[1, 'PR_MANUALLY_MERGED']]);
    expect(checksEnds(events)).toContainEqual([[2], 'PR_AHEAD_DEQUEUED', 'REEMBARKED']);
  });
});

describe('merge queue: pause and freeze (§4)', () => {
  it('a pause stops draft checks (PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE), starts nothing and merges nothing', () => {
    const history = running(policyWith({ maxParallelChecks: 2 }), 2);
    const passed = then(history, checksReported(history, 1, 30, 'success'));
    const paused = then(passed, command('set_pause', 31, { paused: true, reason: 'release' }));
    expect(checksEnds(after(passed, paused))).toEqual([
      [[2], 'PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE', 'REEMBARKED'],
    ]);
    expect(effectsOf(paused, 31).filter((e) => e.kind !== 'close_draft')).toEqual([]);
    expect(compositions(decide(paused, enqueue(3, 32)))).toEqual([]);
    const resumed = decide(paused, command('set_pause', 40, { paused: false, reason: null }));
    expect(compositions(resumed)).toEqual([[2]]);
    expect(effectsOf([...paused, ...resumed], 40)).toContainEqual(
      expect.objectContaining({ kind: 'merge', pullRequest: 1 }),
    );
  });

  it('in-place checks cannot be stopped by a pause', () => {
    const history = running(policyWith({ maxParallelChecks: 1 }), 1);
    expect(checksEnds(decide(history, command('set_pause', 5, { paused: true, reason: 'x' })))).toEqual([]);
  });

  it('a freeze holds merges; its end releases them and the wait is in seconds_waiting_for_freeze', () => {
    const history = running(policyWith({ maxParallelChecks: 1 }), 1);
    const frozen = then(history, command('set_frozen', 10, { pullRequests: [1] }));
    const passed = then(frozen, checksReported(frozen, 1, 30, 'success'));
    expect(effectsOf(passed, 30).filter((e) => e.kind === 'merge')).toEqual([]);
    const thawed = then(passed, command('set_frozen', 40, { pullRequests: [] }));
    expect(effectsOf(thawed, 40)).toContainEqual(expect.objectContaining({ kind: 'merge', pullRequest: 1 }));
    const merged = decide(thawed, command('merged', 41, { pullRequest: 1, mergeCommitSha: 'm' }));
    expect(merged.find((e) => e.type === 'merge_queue.pull_request_left')!.data).toMatchObject({
      secondsWaitingForFreeze: 30 * 60,
    });
  });

  it('a freeze that holds part of a batch splits it (SCHEDULED_FREEZE_STATUS_CHANGED) into frozen and free batches', () => {
    const history = running(policyWith({ maxParallelChecks: 2 }, { batchSize: 2 }), 2);
    const events = decide(history, command('set_frozen', 5, { pullRequests: [2] }));
    expect(checksEnds(events)).toEqual([[[1, 2], 'SCHEDULED_FREEZE_STATUS_CHANGED', 'REEMBARKED']]);
    expect(compositions(events)).toEqual([[1], [2]]);
  });
});

describe('merge queue: configuration changes', () => {
  it('lowering max_parallel_checks stops the surplus batches (SPECULATIVE_CHECK_NUMBER_REDUCED)', () => {
    const history = running(policyWith({ maxParallelChecks: 3 }), 3);
    const events = decide(history, configure(policyWith({ maxParallelChecks: 1 }), 5));
    expect(checksEnds(events)).toEqual([
      [[3], 'SPECULATIVE_CHECK_NUMBER_REDUCED', 'REEMBARKED'],
      [[2], 'SPECULATIVE_CHECK_NUMBER_REDUCED', 'REEMBARKED'],
    ]);
  });

  it('a queue rule removed from the configuration dequeues its pull requests (QUEUE_RULE_MISSING)', () => {
    const policy = policyWith({}, {}, [{ name: 'hotfix' }]);
    const history = run([configure(policy), enqueue(1, 0, { queueName: 'hotfix' })]).events;
    expect(leaves(decide(history, configure(policyWith(), 1)))).toEqual([[1, 'QUEUE_RULE_MISSING']]);
  });

  it('the same configuration again changes nothing', () => {
    const history = running(policyWith(), 1);
    expect(decide(history, configure(policyWith(), 2))).toEqual([]);
  });
});

describe('merge queue: priorities and interruption (§2.1)', () => {
  const policy = policyWith({ maxParallelChecks: 2 });

  it('without allow_checks_interruption a higher priority waits behind running checks', () => {
    const history = running(policyWith({ maxParallelChecks: 1 }, { batchSize: 1 }), 1);
    const events = decide(history, enqueue(2, 2, { priority: 3000 }));
    expect(checksEnds(events)).toEqual([]);
  });

  it('with it, running lower-priority checks are interrupted (PR_WITH_HIGHER_PRIORITY_QUEUED) and it goes first', () => {
    const history = running(policy, 2);
    const events = decide(history, enqueue(3, 2, { priority: 3000, allowCheckInterruption: true }));
    expect(checksEnds(events)).toEqual([
      [[2], 'PR_WITH_HIGHER_PRIORITY_QUEUED', 'REEMBARKED'],
      [[1], 'PR_WITH_HIGHER_PRIORITY_QUEUED', 'REEMBARKED'],
    ]);
    expect(compositions(events)).toEqual([[3], [1]]);
  });

  it('a refresh that raises the priority reorders the waiting pull requests', () => {
    const history = run([
      configure(policyWith({ maxParallelChecks: 1 }, { batchSize: 1 })),
      command('set_pause', 0, { paused: true, reason: 'x' }),
      enqueue(1, 0),
      enqueue(2, 1),
    ]).events;
    const raised = then(
      history,
      command('refresh', 2, {
        pullRequest: 2,
        priority: 3000,
        priorityRuleName: 'high',
        allowCheckInterruption: false,
      }),
    );
    expect(compositions(decide(raised, command('set_pause', 3, { paused: false, reason: null })))).toEqual([
      [2],
    ]);
  });
});

describe('merge queue: parallel mode and scopes (§3)', () => {
  const parallel = (extra: Partial<QueuePolicy['mergeQueue']> = {}) =>
    policyWith({ mode: 'parallel', maxParallelChecks: 4, ...extra }, { batchSize: 2, batchMaxWaitTime: 0 });

  it('scopes run in lanes of their own; a pull request in two scopes waits for both lanes', () => {
    const { events } = run([
      configure(parallel()),
      command('set_pause', 0, { paused: true, reason: 'x' }),
      enqueue(1, 0, { scopes: ['api'] }),
      enqueue(2, 0, { scopes: ['web'] }),
      enqueue(3, 0, { scopes: ['api', 'web'] }),
      enqueue(4, 0, { scopes: ['api'] }),
      command('set_pause', 1, { paused: false, reason: null }),
    ]);
    expect(compositions(events)).toEqual([[1, 4], [2], [3]]);
    const state = stateOf(events);
    const [api, web, both] = state.batches;
    expect(api!.parentIds).toEqual([]);
    expect(web!.parentIds).toEqual([]);
    expect(both!.parentIds.sort()).toEqual([api!.id, web!.id].sort());
  });

  it('a failure only restarts the batches of its own lanes', () => {
    const history = withDrafts(
      run([
        configure(parallel()),
        enqueue(1, 0, { scopes: ['api'] }),
        enqueue(2, 0, { scopes: ['web'] }),
        enqueue(3, 0, { scopes: ['api'] }),
      ]).events,
      1,
    );
    const events = decide(history, checksReported(history, 1, 30, 'failure'));
    expect(leaves(events)).toEqual([[1, 'CHECKS_FAILED']]);
    expect(checksEnds(events).map(([prs]) => prs)).not.toContainEqual([2]);
  });

  it('per-scope capacities cap the lanes inside max_parallel_checks', () => {
    const { events } = run([
      configure(parallel({ capacities: { api: 1 } })),
      command('set_pause', 0, { paused: true, reason: 'x' }),
      enqueue(1, 0, { scopes: ['api'] }),
      enqueue(2, 0, { scopes: ['api'] }),
      enqueue(3, 0, { scopes: ['api'] }),
      enqueue(4, 0, { scopes: ['web'] }),
      command('set_pause', 1, { paused: false, reason: null }),
    ]);
    expect(compositions(events)).toEqual([[1, 2], [4]]);
  });

  it('an all_scopes barrier runs alone after the batches ahead, and everything behind waits for it', () => {
    const history = withDrafts(
      run([configure(parallel()), enqueue(1, 0, { scopes: ['api'] }), enqueue(2, 0.5, { allScopes: true })])
        .events,
      1,
    );
    expect(compositions(history)).toEqual([[1]]);
    const waiting = then(history, enqueue(3, 2, { scopes: ['web'] }));
    expect(compositions(after(history, waiting))).toEqual([]);
    const passed = then(waiting, checksReported(waiting, 1, 30, 'success'));
    const merged = decide(passed, command('merged', 31, { pullRequest: 1, mergeCommitSha: 'm1' }));
    expect(compositions(merged)).toEqual([[2]]);
  });

  it('isolated mode checks every batch on the base alone and merges it as soon as it passes', () => {
    const history = withDrafts(
      run([configure(policyWith({ mode: 'isolated', maxParallelChecks: 3 })), enqueue(1, 0), enqueue(2, 0)])
        .events,
      1,
    );
    expect(stateOf(history).batches.map((b) => b.parentIds)).toEqual([[], []]);
    const passed = then(history, checksReported(history, 2, 30, 'success'));
    expect(effectsOf(passed, 30)).toContainEqual(expect.objectContaining({ kind: 'merge', pullRequest: 2 }));
  });
});

describe('merge queue: interruption never thrashes', () => {
  it('a higher-priority pull request held by its stack predecessor interrupts nothing', () => {
    const history = running(policyWith({ maxParallelChecks: 1 }, { batchSize: 1 }), 1);
    const withPredecessor = then(history, enqueue(2, 1));
    const events = decide(
      withPredecessor,
      enqueue(3, 2, { priority: 3000, allowCheckInterruption: true, dependsOn: [2] }),
    );
    expect(checksEnds(events)).toEqual([]);
    expect(events.length).toBeLessThan(10);
  });
});

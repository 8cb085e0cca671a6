import {
  batchOf,
  checksEnds,
  checksReported,
  command,
  draftCreated,
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
import type { MergeQueueEvent } from './events';

const merge = (history: MergeQueueEvent[], pullRequest: number, at: number) =>
  then(history, command('merged', at, { pullRequest, mergeCommitSha: `m${pullRequest}` }));

const mergeAll = (history: MergeQueueEvent[], at: number): MergeQueueEvent[] => {
  let events = history;
  for (let guard = 0; guard < 50; guard++) {
    const next = effectsOf(events, at).find((e) => e.kind === 'merge');
    if (!next || next.kind !== 'merge') break;
    events = merge(events, next.pullRequest, at);
  }
  return events;
};

describe('merge queue: a failing pull request', () => {
  it('leaves with CHECKS_FAILED; the batch behind it is re-embarked with BATCH_AHEAD_FAILED', () => {
    const history = running(policyWith({ maxParallelChecks: 2 }), 2);
    const events = after(history, then(history, checksReported(history, 1, 30, 'failure')));
    expect(checksEnds(events)).toEqual([
      [[2], 'BATCH_AHEAD_FAILED', 'REEMBARKED'],
      [[1], 'CHECKS_FAILED', 'DEFINITIVE'],
    ]);
    expect(leaves(events)).toEqual([[1, 'CHECKS_FAILED']]);
    expect(compositions(events)).toEqual([[2]]);
    const left = events.find((e) => e.type === 'merge_queue.pull_request_left')!;
    expect(left.data).toMatchObject({
      merged: false,
      reason: 'The merge conditions cannot be satisfied due to failing checks',
      unsuccessfulChecks: [expect.objectContaining({ name: 'ci', state: 'failure' })],
    });
  });

  it('a batch that fails behind one still running waits to know whose failure it is', () => {
    const history = running(policyWith({ maxParallelChecks: 2 }), 2);
    const parked = then(history, checksReported(history, 2, 20, 'failure'));
    expect(leaves(after(history, parked))).toEqual([]);
    expect(batchOf(parked, 2).phase).toBe('failed');
    // The batch ahead passes and merges: the failure was #2's own.
    const passed = then(parked, checksReported(parked, 1, 30, 'success'));
    const merged = merge(passed, 1, 31);
    expect(leaves(after(passed, merged))).toEqual([
      [1, 'PR_MERGED'],
      [2, 'CHECKS_FAILED'],
    ]);
  });

  it('names BATCH_AHEAD_FAILED on the dissolution of a batch behind a failure, even before its checks start', () => {
    // Given #1 and #2 running and #3 still preparing its draft, three slots.
    const given = run([
      configure(policyWith({ maxParallelChecks: 3 })),
      enqueue(1, 0),
      enqueue(2, 0),
      enqueue(3, 0),
    ]).events;
    let history = given;
    for (const [number, draft] of [
      [1, 901],
      [2, 902],
    ] as const)
      history = then(history, draftCreated(history, number, 1, draft));
    expect(batchOf(history, 3).phase).toBe('preparing');
    // When #2 fails while #1 still runs.
    const events = after(history, then(history, checksReported(history, 2, 20, 'failure')));
    // Then #3's batch is torn down for the failure ahead (no checks were open to say so) and its
    // pull request waits: nothing is composed behind the parked failure.
    expect(checksEnds(events)).toEqual([]);
    expect(events.filter((e) => e.type === 'merge_queue.batch_dissolved').map((e) => e.data)).toEqual([
      expect.objectContaining({ returnedPullRequests: [3], abortCode: 'BATCH_AHEAD_FAILED' }),
    ]);
    expect(compositions(events)).toEqual([]);
    expect(stateOf([...history, ...events]).pullRequests[3]?.batchId).toBeNull();
  });

  it('a parked failure is re-embarked when the batch ahead fails too', () => {
    const history = running(policyWith({ maxParallelChecks: 2 }), 2);
    const parked = then(history, checksReported(history, 2, 20, 'failure'));
    const events = after(parked, then(parked, checksReported(parked, 1, 30, 'failure')));
    expect(checksEnds(events)).toEqual([
      [[2], 'BATCH_AHEAD_FAILED', 'REEMBARKED'],
      [[1], 'CHECKS_FAILED', 'DEFINITIVE'],
    ]);
    const ended = events.find((e) => e.type === 'merge_queue.checks_ended')!;
    expect(ended.data).toMatchObject({ speculativeCheck: { checksConclusion: 'failure' } });
  });

  it('retries with a fresh draft on a new branch while max_checks_retries allows (§2.4)', () => {
    const history = running(policyWith({ maxParallelChecks: 1 }, { maxChecksRetries: 1 }), 1);
    const firstBranch = batchOf(history, 1).branch;
    const retried = then(history, checksReported(history, 1, 30, 'failure'));
    const events = after(history, retried);
    expect(types(events)).toEqual([
      'merge_queue.batch_failed',
      'merge_queue.checks_ended',
      'merge_queue.batch_preparing',
      'merge_queue.running_checks_changed',
    ]);
    expect(events[1]!.data).toMatchObject({
      aborted: true,
      abortCode: 'CHECKS_RETRIED',
      abortStatus: 'REEMBARKED',
      retryAttempt: 1,
      maxRetries: 1,
    });
    expect(batchOf(retried, 1)).toMatchObject({ attempt: 1 });
    expect(batchOf(retried, 1).branch).not.toBe(firstBranch);
    expect(effectsOf(retried, 30)).toEqual([
      expect.objectContaining({ kind: 'create_draft', attempt: 1 }),
      expect.objectContaining({ kind: 'close_draft', checkPullRequest: 900 }),
    ]);
    const again = withDrafts(retried, 31);
    const final = after(again, then(again, checksReported(again, 1, 60, 'failure')));
    expect(leaves(final)).toEqual([[1, 'CHECKS_FAILED']]);
  });

  it('times out after checks_timeout with CHECKS_TIMEOUT', () => {
    const history = running(policyWith({ maxParallelChecks: 1 }, { checksTimeout: 600 }), 1);
    expect(after(history, then(history, command('tick', 10.9, {})))).toEqual([]);
    const events = after(history, then(history, command('tick', 11, {})));
    expect(leaves(events)).toEqual([[1, 'CHECKS_TIMEOUT']]);
    expect(events.find((e) => e.type === 'merge_queue.checks_ended')!.data).toMatchObject({
      abortCode: 'CHECKS_TIMEOUT',
      abortStatus: 'DEFINITIVE',
      speculativeCheck: { checksTimedOut: true, checksConclusion: 'timed_out' },
    });
  });

  it('checks_timeout auto: no timeout before 10 successful runs, then their p95 plus a margin', () => {
    const policy = policyWith({ maxParallelChecks: 1 }, { checksTimeout: 'auto' });
    let events = run([configure(policy)]).events;
    let at = 0;
    for (let pr = 1; pr <= 10; pr++) {
      events = withDrafts(then(events, enqueue(pr, at)), at);
      expect(stateOf(events).batches[0]!.phase).toBe('running');
      // Without history, even a very long run is not timed out.
      expect(leaves(after(events, then(events, command('tick', at + 600, {}))))).toEqual([]);
      events = then(events, checksReported(events, pr, at + 30, 'success'));
      events = merge(events, pr, at + 30);
      at += 31;
    }
    events = withDrafts(then(events, enqueue(11, at)), at);
    // p95 of ten 30-minute runs is 30 minutes; the margin is max(20 %, 5 minutes) = 6 minutes.
    expect(leaves(after(events, then(events, command('tick', at + 35.9, {}))))).toEqual([]);
    expect(leaves(after(events, then(events, command('tick', at + 36, {}))))).toEqual([
      [11, 'CHECKS_TIMEOUT'],
    ]);
  });
});

describe('merge queue: bisection (§2.5)', () => {
  const sixInOne = policyWith({ maxParallelChecks: 3 }, { batchSize: 6, batchMaxWaitTime: 600 });

  it('splits [1..6] into cumulative [1,2], [1..4], [1..5]; [1..6] is never checked again', () => {
    const history = running(sixInOne, 6);
    const events = after(history, then(history, checksReported(history, 1, 30, 'failure')));
    const start = events.find((e) => e.type === 'merge_queue.batch_bisection_started')!;
    expect(start.data).toMatchObject({
      batchSizeBeforeSplit: 6,
      numberOfSubBatches: 3,
      bisectionDepth: 1,
      isTopLevel: true,
      batchPullRequestNumbers: [900],
    });
    expect(checksEnds(events)).toEqual([[[1, 2, 3, 4, 5, 6], 'CHECKS_FAILED', 'REEMBARKED']]);
    expect(compositions(events)).toEqual([[1, 2], [3, 4], [5], [6]]);
    const drafts = effectsOf([...history, ...events], 30).flatMap((e) =>
      e.kind === 'create_draft' ? [e.pullRequests] : [],
    );
    expect(drafts).toEqual([
      [1, 2],
      [1, 2, 3, 4],
      [1, 2, 3, 4, 5],
    ]);
  });

  it('the last pull request is the culprit when every split passes; the others merge', () => {
    const split = withDrafts(
      then(running(sixInOne, 6), checksReported(running(sixInOne, 6), 1, 30, 'failure')),
      31,
    );
    let events = split;
    for (const pr of [1, 3, 5]) events = then(events, checksReported(events, pr, 60, 'success'));
    const resolved = mergeAll(events, 61);
    const tail = after(events, resolved);
    expect(leaves(tail)).toEqual([
      [1, 'PR_MERGED'],
      [2, 'PR_MERGED'],
      [3, 'PR_MERGED'],
      [4, 'PR_MERGED'],
      [5, 'PR_MERGED'],
      [6, 'CHECKS_FAILED'],
    ]);
    expect(tail.find((e) => e.type === 'merge_queue.batch_bisection_ended')!.data).toMatchObject({
      culpritFound: true,
      culpritPullRequests: [6],
      remainingPullRequests: [1, 2, 3, 4, 5],
      maxFailureResolutionReached: false,
      batchName: 'default #1 #2 #3 #4 #5 #6',
      droppedUnverifiedPullRequests: [],
    });
    // Each leave names the batch it left from; each merge, the commit it landed.
    const left = tail.filter((e) => e.type === 'merge_queue.pull_request_left').map((e) => e.data);
    expect(left.every((d) => typeof d.batch?.id === 'string')).toBe(true);
    const merged = tail.filter((e) => e.type === 'merge_queue.pull_request_merged').map((e) => e.data);
    expect(merged.every((d) => typeof d.mergeCommitSha === 'string')).toBe(true);
  });

  it('a failing split is split again, one level deeper, after the splits behind it go back to waiting', () => {
    const first = running(sixInOne, 6);
    const split = withDrafts(then(first, checksReported(first, 1, 30, 'failure')), 31);
    let events = then(split, checksReported(split, 1, 60, 'success'));
    events = then(events, checksReported(events, 3, 60, 'failure'));
    events = mergeAll(events, 61);
    const tail = after(split, events);
    expect(checksEnds(tail)).toContainEqual([[5], 'BATCH_AHEAD_FAILED', 'REEMBARKED']);
    expect(tail.filter((e) => e.type === 'merge_queue.batch_bisection_started').map((e) => e.data)).toEqual([
      expect.objectContaining({ bisectionDepth: 2, isTopLevel: false, batchSizeBeforeSplit: 2 }),
    ]);
    expect(compositions(tail)).toEqual([[3], [4]]);
  });

  it('batch_max_failure_resolution_attempts: 0 dequeues the whole failed batch', () => {
    const policy = policyWith(
      { maxParallelChecks: 1 },
      { batchSize: 3, batchMaxFailureResolutionAttempts: 0 },
    );
    const history = running(policy, 3);
    const events = after(history, then(history, checksReported(history, 1, 30, 'failure')));
    expect(leaves(events)).toEqual([
      [1, 'BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS'],
      [2, 'BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS'],
      [3, 'BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS'],
    ]);
    expect(types(events)).not.toContain('merge_queue.batch_bisection_started');
  });

  it('reaching the cap inside a bisection ends it with max_failure_resolution_reached', () => {
    const policy = policyWith(
      { maxParallelChecks: 1 },
      { batchSize: 5, batchMaxFailureResolutionAttempts: 1 },
    );
    const history = running(policy, 5);
    const split = withDrafts(then(history, checksReported(history, 1, 30, 'failure')), 31);
    // Two parts: [1,2], [3,4], and [5] known to fail; the first split fails again.
    expect(compositions(after(history, split))).toEqual([[1, 2], [3, 4], [5]]);
    const events = after(split, then(split, checksReported(split, 1, 60, 'failure')));
    expect(leaves(events)).toEqual([
      [1, 'BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS'],
      [2, 'BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS'],
    ]);
    expect(events.find((e) => e.type === 'merge_queue.batch_bisection_ended')!.data).toMatchObject({
      culpritFound: false,
      maxFailureResolutionReached: true,
      droppedUnverifiedPullRequests: [1, 2],
    });
  });
});

describe('merge queue: skip_intermediate_results (§2.6)', () => {
  const policy = policyWith({ maxParallelChecks: 2, skipIntermediateResults: true });

  it('a later passing batch covers a failed one: both merge, the skipped checks end as INTERMEDIATE_RESULTS_SKIPPED', () => {
    const history = running(policy, 2);
    const failed = then(history, checksReported(history, 1, 30, 'failure'));
    expect(leaves(after(history, failed))).toEqual([]);
    const covered = then(failed, checksReported(failed, 2, 31, 'success'));
    expect(checksEnds(after(failed, covered))).toEqual([
      [[2], null, 'DEFINITIVE'],
      [[1], 'INTERMEDIATE_RESULTS_SKIPPED', 'REEMBARKED'],
    ]);
    expect(leaves(after(covered, mergeAll(covered, 32)))).toEqual([
      [1, 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED'],
      [2, 'PR_MERGED'],
    ]);
  });

  it('when nothing behind passes, the failure is resolved as usual', () => {
    const history = running(policy, 2);
    let events = then(history, checksReported(history, 1, 30, 'failure'));
    events = then(events, checksReported(events, 2, 31, 'failure'));
    const tail = after(history, events);
    expect(leaves(tail)).toEqual([[1, 'CHECKS_FAILED']]);
    expect(checksEnds(tail)).toContainEqual([[2], 'BATCH_AHEAD_FAILED', 'REEMBARKED']);
  });
});

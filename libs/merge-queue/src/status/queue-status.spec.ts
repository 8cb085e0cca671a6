import type { ConditionEvaluation } from '@switchyard/mergify-config';
import type { MergeQueueEvent } from '../domain/events';
import {
  checksReported,
  command,
  configure,
  enqueue,
  policyWith,
  run,
  stateOf,
  then,
  withDrafts,
  minutes,
} from '../testing/queue-commands';
import { apiDequeue, apiDequeueRequest, dryRunDequeue, impactOfEvents } from './dequeue-impact';
import { pullRequestDetailJson, pullRequestQueuedJson } from './detail-json';
import { estimateQueue } from './eta';
import { evolveStatus, initialStatusFold, type QueueStatusFold } from './status-fold';
import { queueStatusJson, type RenderContext } from './status-json';
import { mergeQueueStatusProblems, pullRequestDetailProblems } from './testing/spec-shapes';

const foldOf = (events: MergeQueueEvent[]): QueueStatusFold =>
  events.reduce(evolveStatus, initialStatusFold());
const contextOf = (events: MergeQueueEvent[], atMinutes: number): RenderContext => {
  const fold = foldOf(events);
  return {
    fold,
    estimates: estimateQueue(fold, minutes(atMinutes)),
    snapshots: new Map(),
    repository: 'acme/mono',
  };
};
const codes = (events: MergeQueueEvent[], atMinutes: number) =>
  queueStatusJson(contextOf(events, atMinutes)).batches.map((b) => [
    b.pull_requests.map((p) => p.number),
    b.status.code,
  ]);

/** Four pull requests, two checks slots, #4 stacked on #3. */
function fourQueued(): MergeQueueEvent[] {
  const { events } = run([
    configure(policyWith({ maxParallelChecks: 2 })),
    enqueue(1, 1),
    enqueue(2, 1),
    enqueue(3, 1),
    enqueue(4, 1, { dependsOn: [3] }),
  ]);
  return withDrafts(events, 2);
}

describe('queue status read model', () => {
  it('shows running batches, waiting pull requests and positions as the spec shapes them', () => {
    const events = fourQueued();
    const status = queueStatusJson(contextOf(events, 3));
    expect(mergeQueueStatusProblems(status as unknown as Record<string, unknown>)).toEqual([]);
    expect(status.batches.map((b) => b.status.code)).toEqual(['running', 'running']);
    expect(status.waiting_pull_requests.map((p) => [p.number, p.depends_on_pull_requests])).toEqual([
      [3, null],
      [4, [3]],
    ]);
    const ctx = contextOf(events, 3);
    const detail = pullRequestDetailJson(ctx, ctx.fold.queue.pullRequests[3]!);
    expect(detail.position).toBe(2);
    expect(detail.mergeability_check).toBeNull();
    expect(pullRequestDetailProblems(detail as unknown as Record<string, unknown>)).toEqual([]);
    const first = pullRequestDetailJson(ctx, ctx.fold.queue.pullRequests[1]!);
    expect(first.mergeability_check).toMatchObject({ check_type: 'draft_pr', ci_state: 'pending' });
  });

  it("shows each pull request's author id and GitHub labels from its snapshot, null labels when unknown", () => {
    const ctx = contextOf(fourQueued(), 3);
    const bug = { id: 11, name: 'bug', color: 'd73a4a', default: true };
    const snapshots = new Map([
      [
        1,
        {
          number: 1,
          title: 'One',
          author: 'alice',
          authorId: 4242,
          labels: ['bug'],
          labelDetails: [bug],
          checks: [],
          repository: { fullName: 'acme/mono' },
        },
      ],
    ]);
    const status = queueStatusJson({ ...ctx, snapshots });
    expect(mergeQueueStatusProblems(status as unknown as Record<string, unknown>)).toEqual([]);
    const first = status.batches[0]!.pull_requests[0]!;
    expect(first).toMatchObject({
      author: { id: 4242, login: 'alice' },
      labels: ['bug'],
      github_labels: [bug],
    });
    const unknown = status.batches[1]!.pull_requests[0]!;
    expect(unknown).toMatchObject({ author: { id: 0, login: '' }, github_labels: null });
  });

  it('shows a running batch held only by a schedule as waiting_schedule, with the judged conditions', () => {
    const ctx = contextOf(fourQueued(), 3);
    const [first, second] = ctx.fold.queue.batches;
    const leaf = (label: string, match: boolean): ConditionEvaluation => ({
      match,
      label,
      description: null,
      documentation_url: null,
      schedule: null,
      subconditions: [],
      evaluations: [],
    });
    const evaluation = {
      ...leaf('all of', false),
      subconditions: [leaf('check-success=tests', true), leaf('schedule=Mon-Fri', false)],
    };
    const conditions = new Map([[first!.id, { evaluation, waitingSchedule: true }]]);
    const status = queueStatusJson({ ...ctx, conditions });
    expect(status.batches.map((b) => [b.id, b.status.code])).toEqual([
      [first!.id, 'waiting_schedule'],
      [second!.id, 'running'],
    ]);
    const detail = pullRequestDetailJson({ ...ctx, conditions }, ctx.fold.queue.pullRequests[1]!);
    expect(detail.mergeability_check?.conditions_evaluation).toEqual(evaluation);
    expect(pullRequestDetailProblems(detail as unknown as Record<string, unknown>)).toEqual([]);
    const legacy = pullRequestQueuedJson({ ...ctx, conditions }, ctx.fold.queue.pullRequests[1]!);
    expect(legacy.speculative_check_pull_request?.evaluated_conditions).toBe(
      '- [X] `check-success=tests`\n- [ ] `schedule=Mon-Fri`',
    );
  });

  it('passes a batch to waiting_for_merge and records its CI time for the ETA', () => {
    const events = then(fourQueued(), checksReported(fourQueued(), 1, 12, 'success'));
    expect(codes(events, 12)[0]).toEqual([[1], 'waiting_for_merge']);
    const fold = foldOf(events);
    expect(fold.ciSeconds['default']).toEqual([600]);
    const status = queueStatusJson(contextOf(events, 12));
    // #2 started at minute 2 with a 10-minute median: its CI should end at minute 12.
    expect(status.batches[1]!.estimated_ci_finish_at).toBe(new Date(minutes(12)).toISOString());
    expect(status.waiting_pull_requests.every((p) => p.estimated_merge_at !== null)).toBe(true);
  });

  it('shows a split batch as bisecting with its sub-batches', () => {
    const { events: queued } = run([
      configure(policyWith({ maxParallelChecks: 1 }, { batchSize: 4 })),
      enqueue(1, 1),
      enqueue(2, 1),
      enqueue(3, 1),
      enqueue(4, 1),
      command('tick', 2, {}),
    ]);
    const started = withDrafts(queued, 2);
    const failed = withDrafts(then(started, checksReported(started, 1, 10, 'failure')), 11);
    const status = queueStatusJson(contextOf(failed, 11));
    expect(mergeQueueStatusProblems(status as unknown as Record<string, unknown>)).toEqual([]);
    const bisecting = status.batches.find((b) => b.status.code === 'bisecting');
    expect(bisecting?.sub_batches?.length).toBeGreaterThan(0);
  });

  it('keeps a batch listed while its pull requests merge one by one, then shows it merged until the next batch starts', () => {
    const { events: queued } = run([
      configure(policyWith({ maxParallelChecks: 1 }, { batchSize: 2 })),
      enqueue(1, 1),
      enqueue(2, 1),
      command('tick', 2, {}),
    ]);
    const started = withDrafts(queued, 2);
    const batchId = stateOf(started).batches[0]!.id;
    const passed = then(started, checksReported(started, 1, 10, 'success'));
    const merge = (history: MergeQueueEvent[], pullRequest: number, at: number) =>
      then(history, command('merged', at, { pullRequest, mergeCommitSha: `m${pullRequest}` }));
    const shown = (events: MergeQueueEvent[], at: number) => {
      const status = queueStatusJson(contextOf(events, at));
      expect(mergeQueueStatusProblems(status as unknown as Record<string, unknown>)).toEqual([]);
      return status.batches.map((b) => [b.id, b.pull_requests.map((p) => p.number), b.status.code]);
    };
    const first = merge(passed, 1, 11);
    expect(shown(first, 11)).toEqual([[batchId, [1, 2], 'waiting_for_merge']]);
    const both = merge(first, 2, 11);
    expect(stateOf(both).batches).toEqual([]);
    expect(shown(both, 11)).toEqual([[batchId, [1, 2], 'merged']]);
    const merged = queueStatusJson(contextOf(both, 11)).batches[0]!;
    expect(merged).toMatchObject({
      ci_finished_at: new Date(minutes(10)).toISOString(),
      checks_timeout_at: null,
    });
    // A newcomer's batch is composed (once batch_max_wait_time is over) and prepares its draft:
    // the merged batch is still shown.
    const next = then(then(both, enqueue(3, 12)), command('tick', 13, {}));
    expect(shown(next, 13).map(([, numbers, code]) => [numbers, code])).toEqual([
      [[1, 2], 'merged'],
      [[3], 'preparing'],
    ]);
    // Its checks start: the merged batch is no longer listed.
    expect(shown(withDrafts(next, 14), 14).map(([, numbers, code]) => [numbers, code])).toEqual([
      [[3], 'running'],
    ]);
  });

  it('shows a batch torn down by a failure ahead as waiting_for_requeue until its pull requests are batched again', () => {
    const { events: queued } = run([
      configure(policyWith({ maxParallelChecks: 3 })),
      enqueue(1, 1),
      enqueue(2, 1),
      enqueue(3, 1),
    ]);
    const started = withDrafts(queued, 2);
    const requeuedId = stateOf(started).batches.find((b) => b.pullRequests.includes(3))!.id;
    // #2 fails while #1 still runs: #2 is parked, #3's batch is torn down and waits.
    const failed = then(started, checksReported(started, 2, 10, 'failure'));
    const status = queueStatusJson(contextOf(failed, 10));
    expect(mergeQueueStatusProblems(status as unknown as Record<string, unknown>)).toEqual([]);
    expect(status.batches.map((b) => [b.pull_requests.map((p) => p.number), b.status.code])).toEqual([
      [[1], 'running'],
      [[2], 'waiting_for_previous_batches'],
      [[3], 'waiting_for_requeue'],
    ]);
    expect(status.batches[2]!.id).toBe(requeuedId);
    expect(status.waiting_pull_requests).toEqual([]);
    // #1 passes and merges: #2 is the culprit and leaves, #3 is batched again under a new id.
    const passed = then(failed, checksReported(failed, 1, 11, 'success'));
    const merged = then(passed, command('merged', 12, { pullRequest: 1, mergeCommitSha: 'm1' }));
    const after = queueStatusJson(contextOf(merged, 12));
    expect(after.batches.map((b) => [b.pull_requests.map((p) => p.number), b.status.code])).toEqual([
      [[1], 'merged'],
      [[3], 'preparing'],
    ]);
    expect(after.batches[1]!.id).not.toBe(requeuedId);
    expect(foldOf(merged).departed?.filter((d) => d.code === 'waiting_for_requeue')).toEqual([]);
  });

  it('lists a pull request whose removal was asked for with dequeue_requested until the dequeue runs', () => {
    const events = fourQueued();
    const requested = then(events, apiDequeueRequest('acme/mono', 'main', 1, minutes(4)));
    const status = queueStatusJson(contextOf(requested, 4));
    const flags = status.batches.flatMap((b) => b.pull_requests.map((p) => [p.number, p.dequeue_requested]));
    expect(flags).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(status.waiting_pull_requests.every((p) => p.dequeue_requested === false)).toBe(true);
    // The removal the request leads to is the one the dry run predicts, requested or not.
    const dequeue = apiDequeue('acme/mono', 'main', 1, minutes(5));
    const state = stateOf(requested);
    expect(dryRunDequeue(state, dequeue)).toEqual(dryRunDequeue(stateOf(events), dequeue));
    const removed = then(requested, dequeue);
    expect(queueStatusJson(contextOf(removed, 5)).batches.flatMap((b) => b.pull_requests)).not.toContainEqual(
      expect.objectContaining({ number: 1 }),
    );
  });

  it('the dequeue dry run predicts exactly what the dequeue then does', () => {
    const events = fourQueued();
    const state = stateOf(events);
    for (const pullRequest of [1, 2, 3]) {
      const dequeue = apiDequeue('acme/mono', 'main', pullRequest, minutes(4));
      const predicted = dryRunDequeue(state, dequeue);
      const real = impactOfEvents(state, pullRequest, run([dequeue], state).events);
      expect(predicted).toEqual(real);
    }
    expect(dryRunDequeue(state, apiDequeue('acme/mono', 'main', 3, minutes(4)))).toEqual({
      interrupted_batches: 0,
      rechecked_pull_requests: 0,
      cascaded_pull_requests: 1,
    });
  });
});

import {
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
  withDrafts,
} from '../testing/queue-commands';

import type { MergeQueueEvent } from './events';

/** batch_dissolved events as [pull requests returned to the queue, abort code]. */
const dissolved = (events: MergeQueueEvent[]) =>
  events.flatMap((e) =>
    e.type === 'merge_queue.batch_dissolved'
      ? [[e.data.returnedPullRequests, e.data.abortCode] as const]
      : [],
  );

/**
 * Two queues on one base: `hotfix` merges its pull requests through GitHub's merge (a new commit on
 * the base), `default` fast-forwards the base to the draft it tested. #2's draft is checked on top
 * of #1's, so it holds #1's draft merge, not the commit #1's merge made.
 */
function bothPassed() {
  const policy = policyWith(
    { maxParallelChecks: 2 },
    { name: 'hotfix', batchSize: 1, mergeMethod: 'merge' },
    [{ name: 'default', batchSize: 1, mergeMethod: 'fast-forward' }],
  );
  const queued = run([
    configure(policy),
    enqueue(1, 0, { queueName: 'hotfix' }),
    enqueue(2, 0, { queueName: 'default' }),
  ]).events;
  const drafted = withDrafts(queued, 1);
  const firstPassed = then(drafted, checksReported(drafted, 1, 5, 'success'));
  return then(firstPassed, checksReported(firstPassed, 2, 5, 'success'));
}

describe('merge queue: a fast-forward batch behind another queue’s merge', () => {
  const passed = bothPassed();
  const hotfixMerged = then(passed, command('merged', 6, { pullRequest: 1, mergeCommitSha: 'merge-of-1' }));
  const fastForward = effectsOf(hotfixMerged, 6).find((effect) => effect.kind === 'merge_batch')!;

  it('is fast-forwarded only by the effect, which finds it behind the base', () => {
    expect(fastForward).toMatchObject({ kind: 'merge_batch', method: 'fast-forward', pullRequests: [2] });
  });

  it('behind the base its queue made: is checked again on that base, and stays queued', () => {
    const behind = run(
      [command('batch_behind_base', 6, { batchId: fastForward.batchId, baseSha: 'merge-of-1' })],
      stateOf(hotfixMerged),
    ).events;

    expect(dissolved(behind)).toEqual([[[2], 'MERGE_QUEUE_RESET']]);
    expect(leaves(behind)).toEqual([]);
    expect(compositions(behind)).toEqual([[2]]);
    const after = [...hotfixMerged, ...behind];
    expect(effectsOf(after, 6)).toContainEqual(
      expect.objectContaining({ kind: 'create_draft', baseSha: 'merge-of-1', pullRequests: [2] }),
    );
    expect(effectsOf(after, 6).filter((effect) => effect.kind === 'merge_batch')).toEqual([]);
  });

  it('behind a base moved by a push the queue has not seen yet: the push is taken in first', () => {
    const behind = run(
      [command('batch_behind_base', 6, { batchId: fastForward.batchId, baseSha: 'pushed' })],
      stateOf(hotfixMerged),
    ).events;

    expect(behind[0]).toMatchObject({
      type: 'merge_queue.base_moved',
      data: { sha: 'pushed', byQueue: false },
    });
    expect(dissolved(behind)).toEqual([[[2], 'MERGE_QUEUE_RESET']]);
    expect(effectsOf([...hotfixMerged, ...behind], 6)).toContainEqual(
      expect.objectContaining({ kind: 'create_draft', baseSha: 'pushed', pullRequests: [2] }),
    );
  });

  it('a batch no longer passed (already reset) is left as it is', () => {
    const reset = then(
      hotfixMerged,
      command('batch_behind_base', 6, { batchId: fastForward.batchId, baseSha: 'merge-of-1' }),
    );
    const again = run(
      [command('batch_behind_base', 6, { batchId: fastForward.batchId, baseSha: 'merge-of-1' })],
      stateOf(reset),
    ).events;
    expect(again).toEqual([]);
  });
});

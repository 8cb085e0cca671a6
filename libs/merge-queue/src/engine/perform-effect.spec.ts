import { CodeHostError, type CodeHost } from '@switchyard/code-host';
import {
  BASE_REF,
  REPOSITORY,
  checksReported,
  configure,
  draftCreated,
  effectsOf,
  enqueue,
  minutes,
  policyWith,
  run,
  running,
  stateOf,
  then,
} from '../testing/queue-commands';
import { performEffect } from './perform-effect';

/** The branch and merge calls a draft's preparation makes, in order. */
function branchRecorder(heads: Record<string, string>) {
  const calls: string[] = [];
  const codeHost = {
    getBranchHead: async (_r: unknown, name: string) => {
      calls.push(`head ${name}`);
      return { name, sha: heads[name] ?? 'base-sha' };
    },
    createBranch: async (_r: unknown, name: string, sha: string) => {
      calls.push(`branch ${name.split('/').at(-2)} at ${sha}`);
      return { name, sha };
    },
    mergeIntoBranch: async (_r: unknown, name: string, sha: string) => {
      calls.push(`merge ${sha}`);
      return { name, sha: `tip-${sha}` };
    },
    createDraftPullRequest: async () => ({ number: 950, headSha: 'draft-950', url: '' }),
  } as unknown as CodeHost;
  return { codeHost, calls };
}

const scene = (events: ReturnType<typeof run>['events']) => ({
  repository: REPOSITORY,
  baseRef: BASE_REF,
  state: stateOf(events),
  now: () => minutes(1),
});

describe('performEffect: a speculative draft', () => {
  // Two batches of one, checked at once: #2 is stacked on #1's draft.
  const start = run([
    configure(policyWith({ maxParallelChecks: 2 }, { batchSize: { min: 1, max: 1 } })),
    enqueue(1, 0),
    enqueue(2, 0),
  ]).events;

  it('starts from the running draft ahead and merges only its own pull requests', async () => {
    const firstRunning = [...start, ...run([draftCreated(start, 1, 0, 901)], stateOf(start)).events];
    const [effect] = effectsOf(firstRunning, 1);
    expect(effect).toMatchObject({ kind: 'create_draft', pullRequests: [1, 2] });
    const parentBranch = stateOf(firstRunning).batches.find((b) => b.pullRequests.includes(1))!.branch!;
    const { codeHost, calls } = branchRecorder({ [parentBranch]: 'draft-901-head' });

    const [result] = await performEffect(codeHost, effect!, scene(firstRunning));

    expect(calls).toEqual([
      `head ${parentBranch}`,
      expect.stringMatching(/ at draft-901-head$/),
      'merge head-2',
    ]);
    expect(result).toMatchObject({ kind: 'draft_created', checkPullRequest: 950 });
  });

  it('builds from the base, merging everything ahead, while the draft ahead is not running yet', async () => {
    const effects = effectsOf(start, 1);
    const second = effects.find((e) => e.kind === 'create_draft' && e.pullRequests.includes(2))!;
    const { codeHost, calls } = branchRecorder({});

    await performEffect(codeHost, second, scene(start));

    expect(calls.filter((c) => c.startsWith('merge'))).toEqual(['merge head-1', 'merge head-2']);
    expect(calls.some((c) => c.startsWith('head mergify'))).toBe(false);
  });
});

describe('performEffect: merging a batch as one', () => {
  const passedBatchOfTwo = (mergeMethod: 'merge-batch' | 'fast-forward') => {
    const history = running(policyWith({}, { batchSize: 2, mergeMethod }), 2);
    return then(history, checksReported(history, 1, 30, 'success'));
  };
  const batchMergeOf = (events: ReturnType<typeof passedBatchOfTwo>) =>
    effectsOf(events, 30).find((effect) => effect.kind === 'merge_batch')!;

  it('merge-batch merges the batch branch into the base (GitHub will not merge a draft) and names the pull requests', async () => {
    const passed = passedBatchOfTwo('merge-batch');
    const effect = batchMergeOf(passed);
    const calls: string[] = [];
    const codeHost = {
      mergePullRequest: async () => {
        throw new Error('merging the draft is refused, as GitHub refuses it');
      },
      mergeIntoBranch: async (_r: unknown, base: string, head: string, message: string) => {
        calls.push(`${head} into ${base}: ${message}`);
        return { name: base, sha: 'batch-merge-sha' };
      },
    } as unknown as CodeHost;

    const results = await performEffect(codeHost, effect, scene(passed));

    expect(calls).toEqual([
      `${stateOf(passed).batches[0]!.branch} into ${BASE_REF}: Merge queue: merged #1, #2`,
    ]);
    expect(results).toEqual([
      expect.objectContaining({ kind: 'merged', pullRequest: 1, mergeCommitSha: 'batch-merge-sha' }),
      expect.objectContaining({ kind: 'merged', pullRequest: 2, mergeCommitSha: 'batch-merge-sha' }),
    ]);
  });

  it('fast-forward moves the base to the tested head of the batch branch', async () => {
    const passed = passedBatchOfTwo('fast-forward');
    const branch = stateOf(passed).batches[0]!.branch!;
    const calls: string[] = [];
    const codeHost = {
      getBranchHead: async (_r: unknown, name: string) => ({ name, sha: `${name}-head` }),
      updateBranch: async (_r: unknown, name: string, sha: string) => {
        calls.push(`${name} to ${sha}`);
        return { name, sha };
      },
    } as unknown as CodeHost;

    const results = await performEffect(codeHost, batchMergeOf(passed), scene(passed));

    expect(calls).toEqual([`${BASE_REF} to ${branch}-head`]);
    expect(results.map((r) => r.kind)).toEqual(['merged', 'merged']);
  });

  /** A base that refuses the fast-forward (as GitHub does), then compares the tested head with `behindBy`. */
  const refusingBase = (behindBy: number) =>
    ({
      getBranchHead: async (_r: unknown, name: string) => ({ name, sha: `${name}-head` }),
      updateBranch: async () => {
        throw new CodeHostError('conflict', 'Update is not a fast forward');
      },
      compare: async () => ({ status: 'diverged', aheadBy: 2, behindBy, mergeBaseSha: 'old', files: [] }),
    }) as unknown as CodeHost;

  it('fast-forward onto a base that moved since the draft was built: the batch is behind the base, nothing is merged', async () => {
    const passed = passedBatchOfTwo('fast-forward');
    const effect = batchMergeOf(passed);

    const results = await performEffect(refusingBase(1), effect, scene(passed));

    expect(results).toEqual([
      expect.objectContaining({
        kind: 'batch_behind_base',
        batchId: effect.batchId,
        baseSha: `${BASE_REF}-head`,
      }),
    ]);
  });

  it('a fast-forward refused for another reason (the draft holds the whole base) fails the merge with the refusal', async () => {
    const passed = passedBatchOfTwo('fast-forward');

    const results = await performEffect(refusingBase(0), batchMergeOf(passed), scene(passed));

    expect(results).toEqual([
      expect.objectContaining({
        kind: 'merge_failed',
        pullRequest: 1,
        outcome: 'error',
        message: 'Update is not a fast forward',
      }),
      expect.objectContaining({ kind: 'merge_failed', pullRequest: 2, outcome: 'error' }),
    ]);
  });
});

describe('performEffect: fast-forward in place', () => {
  const passedInPlace = () => {
    const history = running(
      policyWith(
        { maxParallelChecks: 1 },
        { batchSize: 1, mergeMethod: 'fast-forward', maxChecksRetries: 0 },
      ),
      1,
    );
    return then(history, checksReported(history, 1, 30, 'success'));
  };
  const mergeOf = (events: ReturnType<typeof passedInPlace>) =>
    effectsOf(events, 30).find((effect) => effect.kind === 'merge')!;
  /** A code host with the pull request at `head` that records the base's moves and refuses merges. */
  const hostWithHead = (head: string, calls: string[]) =>
    ({
      getPullRequestSummary: async () => ({
        state: 'open',
        merged: false,
        mergeCommitSha: null,
        head: { sha: head },
      }),
      updateBranch: async (_r: unknown, name: string, sha: string) => {
        calls.push(`${name} to ${sha}`);
        return { name, sha };
      },
      mergePullRequest: async () => {
        throw new Error('a fast-forward makes no merge commit');
      },
    }) as unknown as CodeHost;

  it('moves the base to the checked head itself: no merge commit', async () => {
    const passed = passedInPlace();
    const effect = mergeOf(passed);
    expect(effect).toMatchObject({ kind: 'merge', method: 'fast-forward' });
    const checked = stateOf(passed).batches[0]!.checkHeadSha!;
    const calls: string[] = [];

    const results = await performEffect(hostWithHead(checked, calls), effect, scene(passed));

    expect(calls).toEqual([`${BASE_REF} to ${checked}`]);
    expect(results).toEqual([
      expect.objectContaining({ kind: 'merged', pullRequest: 1, mergeCommitSha: checked }),
    ]);
  });

  it('refuses a head pushed after the checks, as the merge endpoint would, and moves nothing', async () => {
    const passed = passedInPlace();
    const calls: string[] = [];
    const host = hostWithHead('pushed-after-the-checks', calls);

    const results = await performEffect(host, mergeOf(passed), scene(passed));

    expect(calls).toEqual([]);
    expect(results).toEqual([
      expect.objectContaining({
        kind: 'merge_failed',
        pullRequest: 1,
        message: 'Head branch was modified. Review and try the merge again.',
      }),
    ]);
  });
});

describe('performEffect: a merge the code host refuses', () => {
  const passedInline = () => {
    const history = running(policyWith({}, { batchSize: 1 }), 1);
    return then(history, checksReported(history, 1, 30, 'success'));
  };
  const refusing = (message: string) =>
    ({
      mergePullRequest: async () => {
        throw new CodeHostError('not-mergeable', message, 405);
      },
      getPullRequestSummary: async () => ({ state: 'open', merged: false, mergeCommitSha: null }),
    }) as unknown as CodeHost;

  it.each([
    ['Base branch was modified. Review and try the merge again.', 'retry'],
    ['Required status check "ci" is expected.', 'pending'],
    ['Pull Request is not mergeable', 'error'],
  ])('"%s" is a merge that failed with outcome %s', async (message, outcome) => {
    const passed = passedInline();
    const merge = effectsOf(passed, 30).find((effect) => effect.kind === 'merge')!;

    const results = await performEffect(refusing(message), merge, scene(passed));

    expect(results).toEqual([
      expect.objectContaining({ kind: 'merge_failed', pullRequest: 1, outcome, message }),
    ]);
  });
});

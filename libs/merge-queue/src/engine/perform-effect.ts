import { isCodeHostError, type CodeHost, type RepositoryCoordinates } from '@switchyard/code-host';
import type { MergeQueueCommand } from '../domain/commands';
import type { QueueEffect } from '../domain/planner';
import type { QueueState } from '../domain/state';
import { batchById, checkedPullRequests } from '../domain/train';
import { headAfterUpdate } from './head-after-update';
import { mergeRefusalOutcome } from './merge-refusal';
import { coordinatesOf } from './repository-configuration';

type Effect<K extends QueueEffect['kind']> = Extract<QueueEffect, { kind: K }>;

/** Where the effect happens and when its result is recorded. */
export interface EffectScene {
  repository: string;
  baseRef: string;
  state: QueueState;
  now: () => number;
}

/**
 * Performs one planner effect through the code host and answers the commands that record its
 * result. Each effect is safe to perform again after a crash: a merge first looks whether the pull
 * request is already merged, a draft branch that exists is reset, a closed draft stays closed.
 */
export async function performEffect(
  codeHost: CodeHost,
  effect: QueueEffect,
  scene: EffectScene,
): Promise<MergeQueueCommand[]> {
  switch (effect.kind) {
    case 'create_draft':
      return [await createDraft(codeHost, effect, scene)];
    case 'update_in_place':
      return [await updateInPlace(codeHost, effect, scene)];
    case 'merge':
      return [await merge(codeHost, effect, scene)];
    case 'merge_batch':
      return mergeBatch(codeHost, effect, scene);
    case 'close_draft':
      return [await closeDraft(codeHost, effect, scene)];
    case 'delete_branch':
      return [await deleteBranch(codeHost, effect, scene)];
  }
}

const at = (scene: EffectScene) => ({
  repository: scene.repository,
  baseRef: scene.baseRef,
  at: scene.now(),
});

type DraftFailure = Extract<MergeQueueCommand, { kind: 'draft_failed' }>['failure'];
type BatchAttempt = { batchId: string; attempt: number };

/** The batch's check could not be prepared. */
const draftFailed = (scene: EffectScene, effect: BatchAttempt, failure: DraftFailure): MergeQueueCommand => ({
  kind: 'draft_failed',
  ...at(scene),
  batchId: effect.batchId,
  attempt: effect.attempt,
  failure,
});

/** The batch's check runs on `checkPullRequest`, whose head is `headSha`. */
const draftCreated = (
  scene: EffectScene,
  effect: BatchAttempt,
  checkPullRequest: number,
  headSha: string,
): MergeQueueCommand => ({
  kind: 'draft_created',
  ...at(scene),
  batchId: effect.batchId,
  attempt: effect.attempt,
  checkPullRequest,
  headSha,
});

async function createDraft(
  codeHost: CodeHost,
  effect: Effect<'create_draft'>,
  scene: EffectScene,
): Promise<MergeQueueCommand> {
  const repository = coordinatesOf(scene.repository);
  const failed = (failure: DraftFailure) => draftFailed(scene, effect, failure);
  const start =
    (await parentDraftStart(codeHost, effect, scene)) ??
    ({
      sha: effect.baseSha ?? (await codeHost.getBranchHead(repository, scene.baseRef)).sha,
      pullRequests: effect.pullRequests,
      onBase: true,
    } satisfies DraftStart);
  try {
    await codeHost.createBranch(repository, effect.branch, start.sha);
  } catch (error) {
    // Left by a run that crashed before recording its draft: start the branch over.
    if (!isCodeHostError(error, 'conflict')) throw error;
    await codeHost.updateBranch(repository, effect.branch, start.sha, { force: true });
  }
  for (const [index, number] of start.pullRequests.entries()) {
    const headSha = scene.state.pullRequests[number]?.headSha;
    if (!headSha) continue;
    try {
      await codeHost.mergeIntoBranch(
        repository,
        effect.branch,
        headSha,
        `Merge #${number} into the queue branch`,
      );
    } catch (error) {
      if (isCodeHostError(error, 'conflict'))
        return failed({ kind: 'conflict', pullRequest: number, withBase: start.onBase && index === 0 });
      if (isCodeHostError(error, 'not-found')) return failed({ kind: 'not_indexed' });
      throw error;
    }
  }
  try {
    const draft = await codeHost.createDraftPullRequest(repository, {
      title: effect.title,
      body: draftBody(scene, effect),
      head: effect.branch,
      base: scene.baseRef,
    });
    return draftCreated(scene, effect, draft.number, draft.headSha);
  } catch (error) {
    if (isCodeHostError(error) && error.kind !== 'unavailable')
      return failed({ kind: 'error', message: error.message });
    throw error;
  }
}

/** Where a draft's branch starts, and the pull requests still to merge onto it. */
interface DraftStart {
  sha: string;
  pullRequests: number[];
  /** The branch starts on the base itself (nothing ahead merged yet). */
  onBase: boolean;
}

/**
 * A speculative draft stacked on a running draft (the last of its parents) starts from that
 * draft's head when it already holds the base and every pull request ahead: only the batch's own pull requests are
 * merged onto it, one merge commit each, instead of merging everything ahead again (writes are
 * the scarce GitHub budget, performance-anchors G7). Anything else starts from the base.
 */
async function parentDraftStart(
  codeHost: CodeHost,
  effect: Effect<'create_draft'>,
  scene: EffectScene,
): Promise<DraftStart | null> {
  const batch = batchById(scene.state, effect.batchId);
  const parentId = batch?.parentIds.at(-1);
  if (!batch || parentId === undefined) return null;
  const parent = batchById(scene.state, parentId);
  if (!parent || parent.phase !== 'running' || parent.checkMethod !== 'draft_pr' || !parent.branch)
    return null;
  const ahead = checkedPullRequests(scene.state, parent);
  const expected = [...ahead, ...batch.pullRequests];
  if (expected.length !== effect.pullRequests.length || expected.some((n, i) => effect.pullRequests[i] !== n))
    return null;
  try {
    const head = await codeHost.getBranchHead(coordinatesOf(scene.repository), parent.branch);
    return { sha: head.sha, pullRequests: batch.pullRequests, onBase: false };
  } catch (error) {
    // The draft ahead finished (and its branch went) since the plan: build from the base.
    if (isCodeHostError(error, 'not-found')) return null;
    throw error;
  }
}

function draftBody(scene: EffectScene, effect: Effect<'create_draft'>): string {
  const batch = batchById(scene.state, effect.batchId);
  const own = batch?.pullRequests ?? [];
  const metadata = {
    pull_requests: own.map((number) => ({ number, scopes: scene.state.pullRequests[number]?.scopes ?? [] })),
    checking_base_sha: effect.baseSha,
  };
  return [
    'This pull request checks these pull requests together before they merge:',
    '',
    ...own.map((number) => `- #${number}`),
    '',
    '```yaml',
    '---',
    JSON.stringify(metadata),
    '```',
  ].join('\n');
}

async function updateInPlace(
  codeHost: CodeHost,
  effect: Effect<'update_in_place'>,
  scene: EffectScene,
): Promise<MergeQueueCommand> {
  const repository = coordinatesOf(scene.repository);
  const started = (headSha: string) => draftCreated(scene, effect, effect.pullRequest, headSha);
  const failed = (failure: DraftFailure) => draftFailed(scene, effect, failure);
  // The head and how far it is behind the base are all this needs: two calls, where the whole
  // snapshot (getPullRequest) costs seven.
  const before = await codeHost.getPullRequestSummary(repository, effect.pullRequest);
  const behind =
    before.state === 'open'
      ? (await codeHost.compare(repository, before.base.ref, before.head.sha)).behindBy
      : null;
  // Up to date: nothing is written, so the head just read is the head the checks judge.
  if (behind === 0) return started(before.head.sha);
  try {
    await codeHost.updatePullRequestBranch(repository, effect.pullRequest, {
      expectedHeadSha: before.head.sha,
    });
  } catch (error) {
    if (!isCodeHostError(error) || error.kind === 'unavailable') throw error;
    return failed(
      error.kind === 'conflict'
        ? { kind: 'conflict', pullRequest: effect.pullRequest, withBase: true }
        : { kind: 'branch_update_failed', message: error.message },
    );
  }
  const after = await headAfterUpdate(codeHost, repository, effect.pullRequest, before.head.sha);
  if (!after)
    return failed({ kind: 'branch_update_failed', message: 'the updated branch did not show within 30 s' });
  return started(after.head.sha);
}

async function merge(
  codeHost: CodeHost,
  effect: Effect<'merge'>,
  scene: EffectScene,
): Promise<MergeQueueCommand> {
  const repository = coordinatesOf(scene.repository);
  const batch = batchById(scene.state, effect.batchId);
  // In place the queue itself moved the head when it updated the branch: what must still be there
  // is the head the checks judged (unknown only for batches recorded before it was kept).
  const expectedHeadSha = batch?.checkMethod === 'in_place' ? batch.checkHeadSha : effect.headSha;
  const merged = (mergeCommitSha: string): MergeQueueCommand => ({
    kind: 'merged',
    ...at(scene),
    pullRequest: effect.pullRequest,
    mergeCommitSha,
  });
  const refused = (message: string): MergeQueueCommand => ({
    kind: 'merge_failed',
    ...at(scene),
    pullRequest: effect.pullRequest,
    outcome: mergeRefusalOutcome(message),
    message,
  });
  try {
    if (effect.method === 'fast-forward') {
      const tested = expectedHeadSha ?? effect.headSha;
      const result = await fastForwardInPlace(
        codeHost,
        repository,
        effect.pullRequest,
        scene.baseRef,
        tested,
      );
      if ('behind' in result)
        return { kind: 'batch_behind_base', ...at(scene), batchId: effect.batchId, baseSha: result.behind };
      return 'refused' in result ? refused(result.refused) : merged(result.sha);
    }
    const outcome = await codeHost.mergePullRequest(repository, effect.pullRequest, {
      method: effect.method === 'merge-batch' ? 'merge' : effect.method,
      ...(expectedHeadSha ? { expectedHeadSha } : {}),
    });
    return merged(outcome.sha);
  } catch (error) {
    if (!isCodeHostError(error) || error.kind === 'unavailable') throw error;
    // A merge that went through before a crash is refused the second time: it is the same merge.
    const current = await codeHost.getPullRequestSummary(repository, effect.pullRequest);
    if (current.merged) return merged(current.mergeCommitSha ?? current.base.sha);
    return refused(error.message);
  }
}

/**
 * In place, a fast-forward moves the base to the checked head itself, without a merge commit; the
 * code host then finds the pull request's head in its base and closes it as merged. A head pushed
 * after the checks is refused as the merge endpoint would refuse it; a merge already done (before
 * a crash) is that merge.
 */
async function fastForwardInPlace(
  codeHost: CodeHost,
  repository: RepositoryCoordinates,
  pullRequest: number,
  baseRef: string,
  tested: string,
): Promise<{ sha: string } | { behind: string } | { refused: string }> {
  const pull = await codeHost.getPullRequestSummary(repository, pullRequest);
  if (pull.merged) return { sha: pull.mergeCommitSha ?? tested };
  if (pull.head.sha !== tested)
    return { refused: 'Head branch was modified. Review and try the merge again.' };
  return fastForward(codeHost, repository, baseRef, tested);
}

async function mergeBatch(
  codeHost: CodeHost,
  effect: Effect<'merge_batch'>,
  scene: EffectScene,
): Promise<MergeQueueCommand[]> {
  const repository = coordinatesOf(scene.repository);
  let sha: string;
  try {
    if (effect.method === 'fast-forward') {
      const head = await codeHost.getBranchHead(repository, effect.branch);
      const moved = await fastForward(codeHost, repository, scene.baseRef, head.sha);
      if ('behind' in moved)
        return [{ kind: 'batch_behind_base', ...at(scene), batchId: effect.batchId, baseSha: moved.behind }];
      sha = moved.sha;
    } else {
      // The batch's pull request is a draft, which GitHub refuses to merge (only GraphQL can mark
      // it ready): the batch branch is merged into the base instead, the merge commit the pull
      // request's merge would have made. Its draft is then closed like any other.
      const message = `Merge queue: merged ${effect.pullRequests.map((n) => `#${n}`).join(', ')}`;
      sha = (await codeHost.mergeIntoBranch(repository, scene.baseRef, effect.branch, message)).sha;
    }
  } catch (error) {
    if (!isCodeHostError(error) || error.kind === 'unavailable') throw error;
    return effect.pullRequests.map((pullRequest) => ({
      kind: 'merge_failed' as const,
      ...at(scene),
      pullRequest,
      outcome: 'error' as const,
      message: error.message,
    }));
  }
  return effect.pullRequests.map((pullRequest) => ({
    kind: 'merged' as const,
    ...at(scene),
    pullRequest,
    mergeCommitSha: sha,
  }));
}

/**
 * Moves the base to the tested commit. Refused (`conflict`) when that is no fast-forward: if the
 * base holds commits the draft lacks, the answer is the base's head (the batch must be checked
 * again on it); any other refusal is thrown as it came (branch protection, say), so that it
 * dequeues with its own message instead of checking the batch again for nothing.
 */
async function fastForward(
  codeHost: CodeHost,
  repository: RepositoryCoordinates,
  baseRef: string,
  tested: string,
): Promise<{ sha: string } | { behind: string }> {
  try {
    return { sha: (await codeHost.updateBranch(repository, baseRef, tested)).sha };
  } catch (error) {
    if (!isCodeHostError(error, 'conflict')) throw error;
    const base = await codeHost.getBranchHead(repository, baseRef);
    const comparison = await codeHost.compare(repository, base.sha, tested);
    if (comparison.behindBy > 0) return { behind: base.sha };
    throw error;
  }
}

async function closeDraft(
  codeHost: CodeHost,
  effect: Effect<'close_draft'>,
  scene: EffectScene,
): Promise<MergeQueueCommand> {
  const repository = coordinatesOf(scene.repository);
  try {
    const draft = await codeHost.getPullRequestSummary(repository, effect.checkPullRequest);
    if (draft.state === 'open') await codeHost.closePullRequest(repository, effect.checkPullRequest);
    await codeHost.deleteBranch(repository, draft.head.ref).catch((error: unknown) => {
      if (!isCodeHostError(error, 'not-found')) throw error;
    });
  } catch (error) {
    if (!isCodeHostError(error, 'not-found')) throw error;
  }
  return { kind: 'draft_closed', ...at(scene), checkPullRequest: effect.checkPullRequest };
}

/** A branch no draft took with it: gone already is as good as deleted. */
async function deleteBranch(
  codeHost: CodeHost,
  effect: Effect<'delete_branch'>,
  scene: EffectScene,
): Promise<MergeQueueCommand> {
  try {
    await codeHost.deleteBranch(coordinatesOf(scene.repository), effect.branch);
  } catch (error) {
    if (!isCodeHostError(error, 'not-found')) throw error;
  }
  return { kind: 'draft_branch_deleted', ...at(scene), branch: effect.branch };
}

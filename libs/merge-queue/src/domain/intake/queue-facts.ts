import type { PullRequestSnapshot } from '@switchyard/code-host';
import type { QueueRuleConfiguration } from '@switchyard/mergify-config';
import type { BaseBranchMoved, ChecksReported, SetPause, SetScopes } from '../commands';
import type { Batch, QueueState } from '../state';
import { judgeBatchChecks } from './checks-verdict';

/**
 * The intake's rules for facts that are not about one pull request's place in the queue: checks on
 * a batch's check pull request, pushes to a queue's base, pause, scopes. Pure, like intake-decider.
 */

interface QueueAt {
  repository: string;
  baseRef: string;
  at: number;
}

/** The running batch whose check pull request (its draft, or itself checked in place) this is. */
export const runningBatchCheckedBy = (queue: QueueState, checkPullRequest: number): Batch | undefined =>
  queue.batches.find((batch) => batch.checkPullRequest === checkPullRequest && batch.phase === 'running');

/**
 * The verdict on a running batch's checks (checks-verdict.ts), as the command that records it, or
 * null while they are pending. `checked head`: judged from a snapshot that changed, only while it
 * shows the very commit the checks started on (a draft can point at a commit CI already judged, a
 * pull request checked in place can be read before its update); `any head`: a check was reported.
 */
export function decideChecks(scene: {
  where: QueueAt;
  queue: QueueState;
  checked: PullRequestSnapshot;
  /** The batch's pull requests' snapshots, for its queue rule's merge conditions. */
  members: readonly PullRequestSnapshot[];
  rule: QueueRuleConfiguration | null;
  head: 'any head' | 'checked head';
  now: Date;
}): ChecksReported | null {
  const batch = runningBatchCheckedBy(scene.queue, scene.checked.number);
  if (!batch) return null;
  if (scene.head === 'checked head' && batch.checkHeadSha !== scene.checked.head.sha) return null;
  const verdict = judgeBatchChecks(scene.rule, scene.checked, scene.members, scene.now);
  if (verdict.conclusion === 'pending') return null;
  return {
    kind: 'checks_reported',
    ...scene.where,
    batchId: batch.id,
    attempt: batch.attempt,
    conclusion: verdict.conclusion,
    unsuccessfulChecks: verdict.conclusion === 'failure' ? verdict.unsuccessfulChecks : [],
  };
}

/**
 * The pull requests whose merge may have brought the base to a pushed commit: the first of each
 * passed batch. The push notification of the queue's own merge can arrive before the effects
 * record that merge.
 */
export const mergesInFlight = (queue: QueueState, sha: string): number[] =>
  queue.ownShas.includes(sha)
    ? []
    : queue.batches.flatMap((batch) =>
        batch.phase === 'passed' && batch.pullRequests.length > 0 ? [batch.pullRequests[0]!] : [],
      );

/**
 * A push to the queue's base moves it (an external push resets the queue, §2.9), unless it is the
 * queue's own merge in flight: one of `mergesInFlight` shows merged into exactly that commit.
 */
export function decideBasePush(
  where: QueueAt,
  sha: string,
  inFlight: readonly { merged: boolean; mergeCommitSha: string | null }[],
): BaseBranchMoved[] {
  if (inFlight.some((pullRequest) => pullRequest.merged && pullRequest.mergeCommitSha === sha)) return [];
  return [{ kind: 'base_moved', ...where, sha }];
}

/** A pause (or its end, or a new reason) reaches every queue of the repository. */
export const pauseCommands = (
  queues: readonly { repository: string; baseRef: string }[],
  pause: { paused: boolean; reason: string | null },
  at: number,
): SetPause[] =>
  queues.map((queue) => ({
    kind: 'set_pause',
    repository: queue.repository,
    baseRef: queue.baseRef,
    at,
    paused: pause.paused,
    reason: pause.paused ? pause.reason : null,
  }));

/** Scopes CI reported for a pull request reach each queue that holds it. */
export const scopesCommands = (
  queues: readonly { repository: string; baseRef: string; state: QueueState }[],
  reported: { pullRequest: number; scopes: string[]; allScopes: boolean },
  at: number,
): SetScopes[] =>
  queues
    .filter((queue) => queue.state.pullRequests[reported.pullRequest] !== undefined)
    .map((queue) => ({
      kind: 'set_scopes',
      repository: queue.repository,
      baseRef: queue.baseRef,
      at,
      pullRequest: reported.pullRequest,
      scopes: reported.scopes,
      allScopes: reported.allScopes,
    }));

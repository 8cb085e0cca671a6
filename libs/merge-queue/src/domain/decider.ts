import { unprocessable, type Decider } from '@switchyard/kernel';
import type {
  ApplyConfiguration,
  BaseBranchMoved,
  BatchBehindBase,
  CommandOrigin,
  ChecksReported,
  DraftCreated,
  DraftFailed,
  Enqueue,
  MergeFailed,
  MergeQueueCommand,
  PullRequestMergedByQueue,
  SetFrozen,
  SetPause,
} from './commands';
import type { AbortCode, MergeQueueEvent } from './events';
import { deterministicUuid, queueBranchName } from './hashing';
import { nextStep, type PlanStep } from './planner';
import { initialQueueState, evolveQueue, policyOf, type Batch, type QueueState } from './state';
import {
  ancestorsOf,
  batchById,
  batchNameOf,
  checkedPullRequests,
  checksInPlace,
  holdsSlot,
  isFrozen,
  ruleOf,
} from './train';
import {
  DEFAULT_PARTITION,
  batchFactsOf,
  dissolve,
  dissolveDescendants,
  dissolveWithDescendants,
  emitQueueSize,
  endChecks,
  recordLeave,
  referencesOf,
  removePullRequest,
  Transition,
} from './transition';

/**
 * The merge queue of one repository's base branch. decide applies what the command says, then lets
 * the planner take every decision that follows from it (start batches, resolve failures, time
 * out), so the stream always holds the queue's complete reasoning and a replay reaches the same
 * state. What the code host must do next is read from the state (planner.pendingEffects).
 */
export const mergeQueueDecider: Decider<QueueState, MergeQueueCommand, MergeQueueEvent> = {
  initialState: initialQueueState,
  evolve: evolveQueue,
  decide(command, state) {
    const t = new Transition(state, command.repository, command.baseRef, command.at);
    handle(t, command);
    settle(t);
    return t.events;
  },
};

/** Guards the planner loop: one command never needs more decisions than this. */
const MAX_STEPS = 1000;

function settle(t: Transition): void {
  endFinishedBisections(t);
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    const step = nextStep(t.state, t.at);
    if (!step) break;
    const before = t.events.length;
    applyStep(t, step);
    endFinishedBisections(t);
    if (t.events.length === before) break;
  }
  const running = t.state.batches.filter((b) => b.phase === 'running').length;
  if (running !== t.state.runningChecksReported) {
    t.emit('merge_queue.running_checks_changed', {
      queueName: policyOf(t.state).rules[0]?.name ?? 'default',
      partitionName: DEFAULT_PARTITION,
      runningChecks: running,
    });
  }
}

function handle(t: Transition, command: MergeQueueCommand): void {
  switch (command.kind) {
    case 'enqueue':
      return enqueue(t, command);
    case 'dequeue':
      if (command.origin)
        logCommand(
          t,
          command.pullRequest,
          command.origin,
          t.state.pullRequests[command.pullRequest]?.sessionId ?? null,
        );
      return removePullRequest(t, command.pullRequest, command.code, {
        reason: command.reason,
        trigger: command.trigger,
      });
    case 'request_dequeue': {
      const pr = t.state.pullRequests[command.pullRequest];
      if (pr && pr.dequeueRequested !== true)
        t.emit('merge_queue.dequeue_requested', { pullRequest: pr.number }, command.trigger);
      return;
    }
    case 'refresh': {
      const pr = t.state.pullRequests[command.pullRequest];
      if (
        pr &&
        (pr.priority !== command.priority ||
          pr.priorityRuleName !== command.priorityRuleName ||
          pr.allowCheckInterruption !== command.allowCheckInterruption)
      )
        t.emit('merge_queue.priority_changed', {
          pullRequest: pr.number,
          priority: command.priority,
          priorityRuleName: command.priorityRuleName,
          allowCheckInterruption: command.allowCheckInterruption,
        });
      return;
    }
    case 'set_scopes': {
      const pr = t.state.pullRequests[command.pullRequest];
      const scopes = [...new Set(command.scopes)].sort();
      if (pr && (pr.allScopes !== command.allScopes || pr.scopes.join(',') !== scopes.join(',')))
        t.emit('merge_queue.scopes_set', { pullRequest: pr.number, scopes, allScopes: command.allScopes });
      return;
    }
    case 'draft_created':
      return draftCreated(t, command);
    case 'draft_failed':
      return draftFailed(t, command);
    case 'checks_reported':
      return checksReported(t, command);
    case 'merged':
      return merged(t, command);
    case 'merge_failed':
      return mergeFailed(t, command);
    case 'batch_behind_base':
      return batchBehindBase(t, command);
    case 'draft_closed':
      if (t.state.draftsToClose.includes(command.checkPullRequest))
        t.emit('merge_queue.draft_closed', { checkPullRequest: command.checkPullRequest });
      return;
    case 'draft_branch_deleted':
      if (t.state.branchesToDelete?.includes(command.branch))
        t.emit('merge_queue.draft_branch_deleted', { branch: command.branch });
      return;
    case 'draft_tampered': {
      const batch = t.state.batches.find((b) => b.checkPullRequest === command.checkPullRequest);
      if (!batch) return;
      if (command.how === 'closed') return dissolveWithDescendants(t, batch, 'BATCH_PULL_REQUEST_CLOSED');
      for (const number of batch.pullRequests) removePullRequest(t, number, 'DRAFT_PULL_REQUEST_CHANGED');
      return;
    }
    case 'base_moved':
      return baseMoved(t, command);
    case 'merged_outside_queue':
      if (t.state.pullRequests[command.pullRequest])
        removePullRequest(t, command.pullRequest, 'PR_MANUALLY_MERGED', { cascade: false });
      return baseMoved(t, { ...command, kind: 'base_moved' });
    case 'apply_configuration':
      return applyConfiguration(t, command);
    case 'set_pause':
      return setPause(t, command);
    case 'set_frozen':
      return setFrozen(t, command);
    case 'tick':
      return;
  }
}

/** A user's command is logged (command.queue / command.dequeue) even when it changes nothing. */
function logCommand(
  t: Transition,
  pullRequest: number,
  origin: CommandOrigin,
  sessionId: string | null,
): void {
  t.emit(
    'pull_request.command_received',
    {
      pullRequest,
      command: origin.command,
      author: origin.author,
      commentId: origin.commentId,
      sessionId,
      commandTrigger: origin.commandTrigger,
      triggerCommentUrl: origin.triggerCommentUrl,
    },
    `Command: ${origin.command}`,
  );
}

function enqueue(t: Transition, c: Enqueue): void {
  if (!ruleOf(t.state, c.queueName)) throw unprocessable(`There is no queue rule named "${c.queueName}"`);
  // The intake judges a snapshot that may predate the merge: a merged pull request is never queued again.
  if (t.state.merged?.includes(c.pullRequest)) return;
  const queued = t.state.pullRequests[c.pullRequest];
  const sessionId =
    queued?.sessionId ??
    deterministicUuid(`${c.repository}#${c.baseRef}#session#${c.pullRequest}#${t.state.sequence}`);
  if (c.origin) logCommand(t, c.pullRequest, c.origin, sessionId);
  if (queued) return;
  const queuedAt = new Date(Math.max(c.at, t.state.lastAt)).toISOString();
  t.emit(
    'merge_queue.pull_request_entered',
    {
      queueName: c.queueName,
      partitionName: DEFAULT_PARTITION,
      pullRequest: c.pullRequest,
      queuedAt,
      priorityRuleName: c.priorityRuleName,
      sessionId,
      priority: c.priority,
      allowCheckInterruption: c.allowCheckInterruption,
      scopes: [...new Set(c.scopes)].sort(),
      allScopes: c.allScopes,
      dependsOn: c.dependsOn.filter((n) => t.state.pullRequests[n] !== undefined),
      headSha: c.headSha,
    },
    c.trigger,
  );
  emitQueueSize(t, t.state.pullRequests[c.pullRequest]!);
}

const startReasonOf = (batch: Batch): string =>
  batch.attempt > 0
    ? `Checks retried (attempt ${batch.attempt})`
    : batch.bisection
      ? 'Batch split to find the failing pull request'
      : batch.parentIds.length > 0
        ? 'Checking on top of the batches ahead'
        : 'Checking on top of the base branch';

function draftCreated(t: Transition, c: DraftCreated): void {
  const batch = batchById(t.state, c.batchId);
  if (!batch || batch.phase !== 'preparing' || batch.attempt !== c.attempt) {
    // The batch went away while the code host prepared it: its draft is closed like any other.
    const ownPullRequest = t.state.pullRequests[c.checkPullRequest] !== undefined;
    if (!ownPullRequest && !t.state.draftsToClose.includes(c.checkPullRequest))
      t.emit('merge_queue.draft_orphaned', { checkPullRequest: c.checkPullRequest });
    return;
  }
  t.emit('merge_queue.checks_started', {
    queueName: batch.queueName,
    partitionName: DEFAULT_PARTITION,
    trainCarId: batch.id,
    ...batchFactsOf(batch),
    attempt: batch.attempt,
    startReason: startReasonOf(batch),
    speculativeCheck: {
      number: c.checkPullRequest,
      inPlace: batch.checkMethod === 'in_place',
      checksTimedOut: false,
      checksConclusion: 'pending',
      checksStartedAt: t.occurredAt,
      checksEndedAt: null,
      unsuccessfulChecks: [],
      pullRequestNumbers: batch.pullRequests,
    },
    pullRequests: referencesOf(t.state, batch.pullRequests),
    checkHeadSha: c.headSha,
    previousBatches: Object.fromEntries(
      batch.pullRequests.map((n) => [n, t.state.pullRequests[n]?.lastCheckedBatch ?? null]),
    ),
  });
}

function draftFailed(t: Transition, c: DraftFailed): void {
  const batch = batchById(t.state, c.batchId);
  if (!batch || batch.phase !== 'preparing' || batch.attempt !== c.attempt) return;
  const { failure } = c;
  switch (failure.kind) {
    case 'conflict': {
      const order = checkedPullRequests(t.state, batch);
      const blocking = order.slice(0, Math.max(0, order.indexOf(failure.pullRequest)));
      if (failure.withBase || blocking.length === 0 || !batch.pullRequests.includes(failure.pullRequest))
        return removePullRequest(t, failure.pullRequest, 'CONFLICT_WITH_BASE_BRANCH');
      const pr = t.state.pullRequests[failure.pullRequest]!;
      t.emit('merge_queue.conflict_deferred', {
        queueName: pr.queueName,
        partitionName: DEFAULT_PARTITION,
        pullRequest: pr.number,
        queuedAt: new Date(pr.queuedAt).toISOString(),
        priorityRuleName: pr.priorityRuleName,
        reason: 'The pull request conflicts with at least one pull request ahead of it in the queue',
        blockingPullRequests: blocking,
        sessionId: pr.sessionId,
      });
      return dissolveWithDescendants(t, batch, 'PR_AHEAD_DEQUEUED');
    }
    case 'not_indexed':
      for (const number of batch.pullRequests) {
        const pr = t.state.pullRequests[number]!;
        t.emit('merge_queue.checks_postponed', {
          queueName: pr.queueName,
          partitionName: DEFAULT_PARTITION,
          pullRequest: number,
          queuedAt: new Date(pr.queuedAt).toISOString(),
          priorityRuleName: pr.priorityRuleName,
          reason: 'The code host has not indexed the draft pull request branch yet; checks will start again',
          sessionId: pr.sessionId,
        });
      }
      return dissolveWithDescendants(t, batch, 'PR_AHEAD_DEQUEUED');
    case 'error':
      for (const number of [...batch.pullRequests])
        removePullRequest(t, number, 'DRAFT_PULL_REQUEST_CREATION_FAILED', {
          reason: `The draft pull request could not be created: ${failure.message}`,
        });
      return;
    case 'branch_update_failed':
      for (const number of [...batch.pullRequests])
        removePullRequest(t, number, 'BRANCH_UPDATE_FAILED', {
          reason: `The pull request branch could not be updated: ${failure.message}`,
        });
      return;
  }
}

function checksReported(t: Transition, c: ChecksReported): void {
  const batch = batchById(t.state, c.batchId);
  if (!batch || batch.phase !== 'running' || batch.attempt !== c.attempt) return;
  if (c.conclusion === 'failure') return fail(t, batch, false, c.unsuccessfulChecks);
  endChecks(t, batch, { aborted: false, code: null, conclusion: 'success' });
  const seconds =
    batch.checksStartedAt === null ? null : Math.max(0, Math.round((t.at - batch.checksStartedAt) / 1000));
  t.emit('merge_queue.batch_passed', { trainCarId: batch.id, covered: false, checksSeconds: seconds });
  const { mergeQueue } = policyOf(t.state);
  if (!mergeQueue.skipIntermediateResults || mergeQueue.mode === 'isolated') return;
  // §2.6: this pass covers every unmerged batch it was checked on top of.
  for (const ancestor of ancestorsOf(t.state, batchById(t.state, batch.id)!)) {
    if (ancestor.phase === 'passed') continue;
    endChecks(t, ancestor, {
      aborted: true,
      code: 'INTERMEDIATE_RESULTS_SKIPPED',
      conclusion: ancestor.phase === 'failed' ? 'failure' : 'cancelled',
    });
    t.emit('merge_queue.batch_passed', { trainCarId: ancestor.id, covered: true, checksSeconds: null });
  }
}

/** The batch's checks failed (or timed out): retry while retries remain, else hold it as failed. */
function fail(
  t: Transition,
  batch: Batch,
  timedOut: boolean,
  unsuccessfulChecks: Batch['unsuccessfulChecks'],
): void {
  const rule = ruleOf(t.state, batch.queueName);
  t.emit('merge_queue.batch_failed', { trainCarId: batch.id, timedOut, unsuccessfulChecks });
  const failed = batchById(t.state, batch.id)!;
  if (rule && failed.attempt < rule.maxChecksRetries) {
    endChecks(t, failed, {
      aborted: true,
      code: 'CHECKS_RETRIED',
      conclusion: timedOut ? 'timed_out' : 'failure',
    });
    return prepare(t, failed, failed.attempt + 1);
  }
  if (
    !policyOf(t.state).mergeQueue.skipIntermediateResults ||
    policyOf(t.state).mergeQueue.mode === 'isolated'
  )
    dissolveDescendants(t, failed, 'BATCH_AHEAD_FAILED');
}

/** §2.5: the failure is this batch's own. One pull request: the culprit. More: split it. */
function resolveFailure(t: Transition, batch: Batch): void {
  const rule = ruleOf(t.state, batch.queueName);
  const code: AbortCode = batch.timedOut ? 'CHECKS_TIMEOUT' : 'CHECKS_FAILED';
  const conclusion = batch.timedOut ? 'timed_out' : 'failure';
  dissolveDescendants(t, batch, 'BATCH_AHEAD_FAILED');
  if (batch.pullRequests.length === 1) {
    endChecks(t, batch, { aborted: false, code, conclusion, status: 'DEFINITIVE' });
    return removePullRequest(t, batch.pullRequests[0]!, code, {
      unsuccessfulChecks: batch.unsuccessfulChecks,
    });
  }
  const depth = batch.bisection?.depth ?? 0;
  const cap = rule?.batchMaxFailureResolutionAttempts ?? null;
  if (cap !== null && depth >= cap) {
    endChecks(t, batch, {
      aborted: false,
      code: 'BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS',
      conclusion,
      status: 'DEFINITIVE',
    });
    for (const number of [...batch.pullRequests])
      removePullRequest(t, number, 'BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS', {
        unsuccessfulChecks: batch.unsuccessfulChecks,
      });
    return;
  }
  // The batch's pull requests stay queued and are checked again in the splits.
  endChecks(t, batch, { aborted: false, code, conclusion, status: 'REEMBARKED' });
  const parts = Math.max(2, policyOf(t.state).mergeQueue.maxParallelChecks);
  const head = batch.pullRequests.slice(0, -1);
  const last = batch.pullRequests[batch.pullRequests.length - 1]!;
  const chunkSize = Math.ceil(head.length / parts);
  const chunks: number[][] = [];
  for (let index = 0; index < head.length; index += chunkSize)
    chunks.push(head.slice(index, index + chunkSize));
  t.emit('merge_queue.batch_bisection_started', {
    queueName: batch.queueName,
    partitionName: DEFAULT_PARTITION,
    trainCarId: batch.id,
    originalBatch: referencesOf(t.state, batch.pullRequests),
    batchPullRequestNumbers: batch.checkPullRequests,
    batchName: batchNameOf(batch.queueName, batch.pullRequests),
    batchSizeBeforeSplit: batch.pullRequests.length,
    numberOfSubBatches: chunks.length,
    bisectionDepth: depth + 1,
    isTopLevel: depth === 0,
  });
  const bisection = { bisectionId: batch.id, depth: depth + 1 };
  let parentIds: string[] = [];
  for (const chunk of chunks) {
    const id = composeBatch(t, { ...batch, pullRequests: chunk, parentIds }, bisection, false, 'queue_order');
    parentIds = [id];
  }
  // The failed batch's last pull request on top of all the splits is exactly what failed: not rechecked.
  const known = composeBatch(
    t,
    { ...batch, pullRequests: [last], parentIds },
    bisection,
    true,
    'queue_order',
  );
  t.emit('merge_queue.batch_failed', {
    trainCarId: known,
    timedOut: batch.timedOut,
    unsuccessfulChecks: batch.unsuccessfulChecks,
  });
}

function composeBatch(
  t: Transition,
  shape: Pick<Batch, 'queueName' | 'pullRequests' | 'parentIds' | 'scopes' | 'allScopes'>,
  bisection: Batch['bisection'],
  knownFailure: boolean,
  reason: 'scope' | 'queue_order',
): string {
  const id = deterministicUuid(`${t.repository}#${t.baseRef}#batch#${t.state.sequence}`);
  t.emit('merge_queue.batch_composed', {
    queueName: shape.queueName,
    partitionName: DEFAULT_PARTITION,
    trainCarId: id,
    pullRequests: referencesOf(t.state, shape.pullRequests),
    batchReason: reason,
    parentIds: shape.parentIds,
    scopes: shape.scopes,
    allScopes: shape.allScopes,
    bisection,
    knownFailure,
  });
  return id;
}

function prepare(t: Transition, batch: Batch, attempt: number): void {
  const rule = ruleOf(t.state, batch.queueName);
  const inPlace =
    rule !== undefined &&
    checksInPlace(t.state, rule) &&
    batch.pullRequests.length === 1 &&
    batch.bisection === null;
  t.emit('merge_queue.batch_preparing', {
    trainCarId: batch.id,
    attempt,
    checkMethod: inPlace ? 'in_place' : 'draft_pr',
    branch: inPlace
      ? ''
      : queueBranchName(rule?.queueBranchPrefix ?? 'mergify/merge-queue/', batch.id, attempt),
    baseSha: t.state.baseSha,
  });
}

function applyStep(t: Transition, step: PlanStep): void {
  switch (step.kind) {
    case 'drop_conflicting':
      return removePullRequest(t, step.pullRequest, 'CONFLICT_WITH_PULL_AHEAD');
    case 'time_out':
      return fail(t, batchById(t.state, step.batchId)!, true, []);
    case 'resolve_failure':
      return resolveFailure(t, batchById(t.state, step.batchId)!);
    case 'interrupt':
      return dissolveWithDescendants(t, batchById(t.state, step.batchId)!, 'PR_WITH_HIGHER_PRIORITY_QUEUED');
    case 'start':
      return prepare(t, batchById(t.state, step.batchId)!, 0);
    case 'compose': {
      const id = composeBatch(t, step, null, false, step.reason);
      return prepare(t, batchById(t.state, id)!, 0);
    }
  }
}

function merged(t: Transition, c: PullRequestMergedByQueue): void {
  const pr = t.state.pullRequests[c.pullRequest];
  const batch = batchById(t.state, pr?.batchId ?? null);
  if (!pr || !batch || batch.phase !== 'passed') {
    if (pr) removePullRequest(t, pr.number, 'PR_MANUALLY_MERGED', { cascade: false });
    return baseMoved(t, { ...c, kind: 'base_moved', sha: c.mergeCommitSha });
  }
  t.emit(
    'merge_queue.pull_request_merged',
    {
      pullRequest: pr.number,
      queueName: pr.queueName,
      partitionNames: [DEFAULT_PARTITION],
      queuedAt: new Date(pr.queuedAt).toISOString(),
      priorityRuleName: pr.priorityRuleName,
      sessionId: pr.sessionId,
      mergeCommitSha: c.mergeCommitSha,
    },
    pr.trigger,
  );
  recordLeave(t, pr, batch.covered ? 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED' : 'PR_MERGED', {
    merged: true,
    batch,
  });
  t.emit('merge_queue.base_moved', { sha: c.mergeCommitSha, byQueue: true });
}

function mergeFailed(t: Transition, c: MergeFailed): void {
  const pr = t.state.pullRequests[c.pullRequest];
  if (!pr) return;
  if (c.outcome === 'error')
    return removePullRequest(t, pr.number, 'PR_UNEXPECTEDLY_FAILED_TO_MERGE', {
      reason: `The pull request could not be merged: ${c.message}`,
    });
  const delay = c.outcome === 'retry' ? 5_000 : 60_000;
  t.emit('merge_queue.merge_postponed', {
    pullRequest: pr.number,
    retryAt: new Date(c.at + delay).toISOString(),
    message: c.message,
  });
}

/**
 * §2.7: a fast-forward lands the tested commit itself, so a draft built before the base moved
 * (another queue's merge makes a commit no draft holds) can never land: the batch, and what is
 * checked on top of it, are checked again on the new base (re-embarked, MERGE_QUEUE_RESET). A base
 * the queue has not seen move yet is taken in first, as any external push would be.
 */
function batchBehindBase(t: Transition, c: BatchBehindBase): void {
  baseMoved(t, { ...c, kind: 'base_moved', sha: c.baseSha });
  const batch = batchById(t.state, c.batchId);
  if (batch?.phase !== 'passed') return;
  dissolveWithDescendants(t, batch, 'MERGE_QUEUE_RESET');
}

/** §2.9: an external push resets the queue unless reset_on_external_merge is never. */
function baseMoved(t: Transition, c: BaseBranchMoved): void {
  if (c.sha === t.state.baseSha || t.state.ownShas.includes(c.sha)) return;
  t.emit('merge_queue.base_moved', { sha: c.sha, byQueue: false });
  if (policyOf(t.state).mergeQueue.resetOnExternalMerge === 'never') return;
  for (const batch of [...t.state.batches].reverse()) dissolve(t, batch, 'MERGE_QUEUE_RESET');
}

function applyConfiguration(t: Transition, c: ApplyConfiguration): void {
  if (t.state.policy !== null && JSON.stringify(t.state.policy) === JSON.stringify(c.policy)) return;
  t.emit('merge_queue.configuration_applied', { policy: c.policy });
  for (const pr of Object.values(t.state.pullRequests)) {
    if (!ruleOf(t.state, pr.queueName)) removePullRequest(t, pr.number, 'QUEUE_RULE_MISSING');
  }
  const max = c.policy.mergeQueue.maxParallelChecks;
  for (;;) {
    const slotted = t.state.batches.filter(holdsSlot);
    if (slotted.length <= max) break;
    dissolveWithDescendants(t, slotted[slotted.length - 1]!, 'SPECULATIVE_CHECK_NUMBER_REDUCED');
  }
}

/** §4.1: checks on drafts stop (their pull requests stay queued); in-place checks cannot be stopped. */
function setPause(t: Transition, c: SetPause): void {
  if (t.state.paused === c.paused && (!c.paused || t.state.pauseReason === c.reason)) return;
  t.emit('merge_queue.pause_observed', { paused: c.paused, reason: c.paused ? c.reason : null });
  if (!c.paused) return;
  for (;;) {
    const stopped = t.state.batches.find((b) => holdsSlot(b) && b.checkMethod === 'draft_pr');
    if (!stopped) break;
    dissolveWithDescendants(t, stopped, 'PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE');
  }
}

/** §4.3: a batch never mixes frozen and unfrozen pull requests; a change that mixes one splits it. */
function setFrozen(t: Transition, c: SetFrozen): void {
  const frozen = [...new Set(c.pullRequests.filter((n) => t.state.pullRequests[n] !== undefined))].sort(
    (a, b) => a - b,
  );
  const current = Object.values(t.state.pullRequests)
    .filter(isFrozen)
    .map((pr) => pr.number)
    .sort((a, b) => a - b);
  if (frozen.join(',') === current.join(',')) return;
  t.emit('merge_queue.freeze_observed', { frozenPullRequests: frozen });
  for (;;) {
    const mixed = t.state.batches.find((b) => {
      const states = new Set(b.pullRequests.map((n) => isFrozen(t.state.pullRequests[n]!)));
      return states.size > 1;
    });
    if (!mixed) break;
    dissolveWithDescendants(t, mixed, 'SCHEDULED_FREEZE_STATUS_CHANGED');
  }
}

function endFinishedBisections(t: Transition): void {
  for (const bisection of Object.values(t.state.bisections)) {
    if (bisection.pending.length > 0) continue;
    t.emit('merge_queue.batch_bisection_ended', {
      queueName: bisection.queueName,
      partitionName: DEFAULT_PARTITION,
      trainCarId: bisection.id,
      originalBatch: bisection.originalBatch,
      batchPullRequestNumbers: bisection.checkPullRequests,
      batchName: batchNameOf(bisection.queueName, bisection.original),
      culpritFound: bisection.culprits.length > 0,
      culpritPullRequests: bisection.culprits,
      remainingPullRequests: bisection.original.filter((n) => !bisection.culprits.includes(n)),
      maxFailureResolutionReached: bisection.capReached,
      droppedUnverifiedPullRequests: bisection.droppedUnverified ?? [],
    });
  }
}

import type { MergeQueueEvent, PreviousBatch, QueueCheck, QueuedPullRequest } from './events';
import { defaultQueuePolicy, type QueuePolicy } from './policy';
import { DEPARTURES_KEPT, holdsRulesBack, type Departure } from './requeue';

/**
 * The state of one queue (a repository's base branch), folded from its events. Times are epoch
 * milliseconds. Batches are kept in train order: a batch's parents are always earlier in the list.
 */
export interface QueueEntry {
  number: number;
  queueName: string;
  priority: number;
  priorityRuleName: string | null;
  allowCheckInterruption: boolean;
  queuedAt: number;
  sessionId: string;
  trigger: string;
  scopes: string[];
  allScopes: boolean;
  dependsOn: number[];
  headSha: string;
  /** When its batch_max_wait_time starts counting; a re-embarked pull request does not wait again. */
  waitingSince: number;
  /** The batch it rides in, or null while waiting. */
  batchId: string | null;
  /** Held by a conflict with these pull requests ahead (§2.8), until they leave. */
  deferredBy: number[] | null;
  /** One of the blockers merged: the conflict is now with the base. */
  blockerMerged: boolean;
  frozenSince: number | null;
  secondsFrozen: number;
  /** A merge the code host refused for now is tried again from this time. */
  mergeRetryAt: number | null;
  /** A user asked for its removal, which has not run yet (absent from states folded before it existed). */
  dequeueRequested?: boolean;
  /** The batch it was last checked in during this stay (absent from states folded before it existed). */
  lastCheckedBatch?: PreviousBatch | null;
}

/**
 * waiting_slot: composed, waits for a checks slot (splits of a bisection); preparing: the code host
 * prepares its draft; running: checks run; passed: waits to merge; failed: checks failed for good,
 * waiting until the batches ahead show whether the failure is its own.
 */
export type BatchPhase = 'waiting_slot' | 'preparing' | 'running' | 'passed' | 'failed';

export interface Batch {
  id: string;
  queueName: string;
  /** Its own pull requests, in merge order, not yet merged. */
  pullRequests: number[];
  parentIds: string[];
  scopes: string[];
  allScopes: boolean;
  phase: BatchPhase;
  attempt: number;
  checkMethod: 'draft_pr' | 'in_place';
  branch: string | null;
  checkPullRequest: number | null;
  /** Every check pull request it used (they rotate on retries). */
  checkPullRequests: number[];
  /** The commit whose checks decide the running checks (null before they start, or when unknown). */
  checkHeadSha: string | null;
  checksStartedAt: number | null;
  /** A checks_start was logged and its checks_end not yet. */
  checksOpen: boolean;
  bisection: { bisectionId: string; depth: number } | null;
  knownFailure: boolean;
  covered: boolean;
  timedOut: boolean;
  unsuccessfulChecks: QueueCheck[];
  composedAt: number;
}

export interface Bisection {
  id: string;
  queueName: string;
  original: number[];
  /** The split batch's pull requests as the log names them (they may have left when it ends). */
  originalBatch: QueuedPullRequest[];
  depth: number;
  /** Pull requests of the split batch not yet merged, dequeued or sent back to waiting. */
  pending: number[];
  culprits: number[];
  capReached: boolean;
  /** Dropped when the cap was reached (absent from states folded before it existed). */
  droppedUnverified?: number[];
  checkPullRequests: number[];
}

export interface QueueState {
  repository: string | null;
  baseRef: string | null;
  /** null until a configuration is applied: the default queue then applies. */
  policy: QueuePolicy | null;
  baseSha: string | null;
  /** Recent merge commits of the queue's own merges (late push notifications are not external). */
  ownShas: string[];
  pullRequests: Record<number, QueueEntry>;
  batches: Batch[];
  bisections: Record<string, Bisection>;
  /** Counts events that create ids (sessions, batches), so ids are derived deterministically. */
  sequence: number;
  paused: boolean;
  pauseReason: string | null;
  /** Check pull requests (drafts) to close; closing one deletes its branch. */
  draftsToClose: number[];
  /**
   * Branches of batches that left the train with no draft recorded on them (a draft that failed to
   * build, or a batch torn down while the code host prepared it): nothing else deletes them.
   * Absent from states folded before it existed.
   */
  branchesToDelete?: string[];
  /** Durations (s) of recent successful checks, for checks_timeout: auto. */
  recentChecksSeconds: number[];
  runningChecksReported: number;
  lastAt: number;
  /**
   * Pull requests that left for a reason that holds queue rules back (requeue.ts), by number: what
   * the intake reads to not queue them again unchanged. Absent from states folded before it existed.
   */
  departures?: Record<number, Departure>;
  /**
   * Pull requests the queue saw merged (its own merges and merges outside it), the most recent
   * MERGED_KEPT: a merged pull request never enters again, even when a snapshot read before its
   * merge still shows it open. Absent from states folded before it existed.
   */
  merged?: number[];
}

export const RECENT_CHECKS_KEPT = 50;
/** Enough to outlast any read model's lag behind the queue's stream. */
export const MERGED_KEPT = 200;
const OWN_SHAS_KEPT = 20;

export const initialQueueState = (): QueueState => ({
  repository: null,
  baseRef: null,
  policy: null,
  baseSha: null,
  ownShas: [],
  pullRequests: {},
  batches: [],
  bisections: {},
  sequence: 0,
  paused: false,
  pauseReason: null,
  draftsToClose: [],
  branchesToDelete: [],
  recentChecksSeconds: [],
  runningChecksReported: 0,
  lastAt: 0,
  departures: {},
  merged: [],
});

export const policyOf = (state: QueueState): QueuePolicy => state.policy ?? defaultQueuePolicy();

const withPullRequest = (
  state: QueueState,
  number: number,
  change: (pr: QueueEntry) => QueueEntry,
): QueueState => {
  const pr = state.pullRequests[number];
  return pr ? { ...state, pullRequests: { ...state.pullRequests, [number]: change(pr) } } : state;
};

const withBatch = (state: QueueState, id: string, change: (batch: Batch) => Batch): QueueState => ({
  ...state,
  batches: state.batches.map((batch) => (batch.id === id ? change(batch) : batch)),
});

const closesDraft = (state: QueueState, batch: Batch): number[] =>
  batch.checkMethod === 'draft_pr' && batch.checkPullRequest !== null
    ? [...state.draftsToClose, batch.checkPullRequest]
    : state.draftsToClose;

/** A batch's branch that no draft will take with it when closed: the queue deletes it itself. */
const deletesBranch = (state: QueueState, batch: Batch): string[] => {
  const branches = state.branchesToDelete ?? [];
  return batch.checkMethod === 'draft_pr' && batch.branch && batch.checkPullRequest === null
    ? [...branches, batch.branch]
    : branches;
};

/** Takes the batch out of the train; its draft, if any, is to be closed, or else its branch deleted. */
const withoutBatch = (state: QueueState, id: string): QueueState => {
  const batch = state.batches.find((b) => b.id === id);
  if (!batch) return state;
  return {
    ...state,
    batches: state.batches.filter((b) => b.id !== id),
    draftsToClose: closesDraft(state, batch),
    branchesToDelete: deletesBranch(state, batch),
  };
};

/** A pull request settled (merged, left, or back to waiting): bisections stop waiting for it. */
const settleInBisections = (state: QueueState, number: number, culprit: boolean): QueueState => {
  let changed = false;
  const bisections: Record<string, Bisection> = {};
  for (const [id, bisection] of Object.entries(state.bisections)) {
    if (!bisection.pending.includes(number)) {
      bisections[id] = bisection;
      continue;
    }
    changed = true;
    bisections[id] = {
      ...bisection,
      pending: bisection.pending.filter((n) => n !== number),
      culprits: culprit ? [...bisection.culprits, number] : bisection.culprits,
    };
  }
  return changed ? { ...state, bisections } : state;
};

/** Removes a pull request from the queue and from the batch it rode in. */
const withoutPullRequest = (state: QueueState, number: number, culprit: boolean): QueueState => {
  const pullRequests = { ...state.pullRequests };
  delete pullRequests[number];
  let next: QueueState = { ...state, pullRequests };
  for (const batch of state.batches) {
    if (!batch.pullRequests.includes(number)) continue;
    const remaining = batch.pullRequests.filter((n) => n !== number);
    next =
      remaining.length === 0
        ? withoutBatch(next, batch.id)
        : withBatch(next, batch.id, (b) => ({ ...b, pullRequests: remaining }));
  }
  return settleInBisections(next, number, culprit);
};

const ms = (iso: string): number => Date.parse(iso);

const withMerged = (state: QueueState, number: number): QueueState => ({
  ...state,
  merged: [...(state.merged ?? []).filter((n) => n !== number), number].slice(-MERGED_KEPT),
});

/** Remembers (or forgets) why the pull request left; the oldest go first beyond DEPARTURES_KEPT. */
const withDeparture = (state: QueueState, number: number, departure: Departure | null): QueueState => {
  const departures = { ...(state.departures ?? {}) };
  delete departures[number];
  if (departure) {
    departures[number] = departure;
    const numbers = Object.keys(departures).map(Number);
    if (numbers.length > DEPARTURES_KEPT) {
      const oldest = numbers.reduce((a, b) => (departures[b]!.leftAt < departures[a]!.leftAt ? b : a));
      delete departures[oldest];
    }
  } else if (!state.departures?.[number]) return state;
  return { ...state, departures };
};

export function evolveQueue(state: QueueState, event: MergeQueueEvent): QueueState {
  const at = ms(event.data.occurredAt);
  const base: QueueState = {
    ...state,
    repository: event.data.repository,
    baseRef: event.data.baseRef,
    lastAt: Math.max(state.lastAt, at),
  };
  switch (event.type) {
    case 'merge_queue.configuration_applied':
      return { ...base, policy: event.data.policy };

    case 'merge_queue.pull_request_entered': {
      const d = event.data;
      const queuedAt = ms(d.queuedAt);
      return {
        ...withDeparture(base, d.pullRequest, null),
        sequence: base.sequence + 1,
        pullRequests: {
          ...base.pullRequests,
          [d.pullRequest]: {
            number: d.pullRequest,
            queueName: d.queueName,
            priority: d.priority,
            priorityRuleName: d.priorityRuleName,
            allowCheckInterruption: d.allowCheckInterruption,
            queuedAt,
            sessionId: d.sessionId,
            trigger: d.trigger,
            scopes: d.scopes,
            allScopes: d.allScopes,
            dependsOn: d.dependsOn,
            headSha: d.headSha,
            waitingSince: queuedAt,
            batchId: null,
            deferredBy: null,
            blockerMerged: false,
            frozenSince: null,
            secondsFrozen: 0,
            mergeRetryAt: null,
            dequeueRequested: false,
            lastCheckedBatch: null,
          },
        },
      };
    }

    case 'merge_queue.batch_composed': {
      const d = event.data;
      const numbers = d.pullRequests.map((pr) => pr.number);
      let next: QueueState = {
        ...base,
        sequence: base.sequence + 1,
        batches: [
          ...base.batches,
          {
            id: d.trainCarId,
            queueName: d.queueName,
            pullRequests: numbers,
            parentIds: d.parentIds,
            scopes: d.scopes,
            allScopes: d.allScopes,
            phase: d.knownFailure ? 'failed' : 'waiting_slot',
            attempt: 0,
            checkMethod: 'draft_pr',
            branch: null,
            checkPullRequest: null,
            checkPullRequests: [],
            checkHeadSha: null,
            checksStartedAt: null,
            checksOpen: false,
            bisection: d.bisection,
            knownFailure: d.knownFailure,
            covered: false,
            timedOut: false,
            unsuccessfulChecks: [],
            composedAt: at,
          },
        ],
      };
      for (const number of numbers)
        next = withPullRequest(next, number, (pr) => ({ ...pr, batchId: d.trainCarId, deferredBy: null }));
      return next;
    }

    case 'merge_queue.batch_preparing': {
      const d = event.data;
      return withBatch(base, d.trainCarId, (batch) => ({
        ...batch,
        phase: 'preparing',
        attempt: d.attempt,
        checkMethod: d.checkMethod,
        branch: d.branch,
        checkPullRequest: null,
        checkHeadSha: null,
        checksStartedAt: null,
        timedOut: false,
        unsuccessfulChecks: [],
      }));
    }

    case 'merge_queue.checks_started': {
      const d = event.data;
      if (d.trainCarId === null) return base;
      let next = base;
      const checked = { id: d.trainCarId, name: d.batchName ?? null };
      for (const pr of d.pullRequests)
        next = withPullRequest(next, pr.number, (entry) => ({ ...entry, lastCheckedBatch: checked }));
      return withBatch(next, d.trainCarId, (batch) => ({
        ...batch,
        phase: 'running',
        checkPullRequest: d.speculativeCheck.number,
        checkPullRequests: [...batch.checkPullRequests, d.speculativeCheck.number],
        checkHeadSha: d.checkHeadSha ?? null,
        checksStartedAt: at,
        checksOpen: true,
      }));
    }

    case 'merge_queue.checks_ended': {
      const d = event.data;
      if (d.trainCarId === null) return base;
      const batch = base.batches.find((b) => b.id === d.trainCarId);
      if (!batch) return base;
      // A retry closes the draft of the attempt that failed; the batch lives on with a new one.
      const retried = d.abortCode === 'CHECKS_RETRIED';
      const next = withBatch(base, d.trainCarId, (b) => ({
        ...b,
        checksOpen: false,
        ...(retried ? { checkPullRequest: null, checkHeadSha: null } : {}),
      }));
      return retried ? { ...next, draftsToClose: closesDraft(next, batch) } : next;
    }

    case 'merge_queue.batch_passed': {
      const d = event.data;
      const recent =
        d.checksSeconds === null
          ? base.recentChecksSeconds
          : [...base.recentChecksSeconds, d.checksSeconds].slice(-RECENT_CHECKS_KEPT);
      return {
        ...withBatch(base, d.trainCarId, (batch) => ({ ...batch, phase: 'passed', covered: d.covered })),
        recentChecksSeconds: recent,
      };
    }

    case 'merge_queue.batch_failed': {
      const d = event.data;
      return withBatch(base, d.trainCarId, (batch) => ({
        ...batch,
        phase: 'failed',
        timedOut: d.timedOut,
        unsuccessfulChecks: d.unsuccessfulChecks,
      }));
    }

    case 'merge_queue.batch_dissolved': {
      const d = event.data;
      let next = withoutBatch(base, d.trainCarId);
      for (const number of d.returnedPullRequests) {
        next = withPullRequest(next, number, (pr) => ({ ...pr, batchId: null, waitingSince: pr.queuedAt }));
        next = settleInBisections(next, number, false);
      }
      return next;
    }

    case 'merge_queue.batch_bisection_started': {
      const d = event.data;
      const original = d.originalBatch.map((pr) => pr.number);
      const next = withoutBatch(base, d.trainCarId ?? '');
      return {
        ...next,
        bisections: {
          ...next.bisections,
          [d.trainCarId ?? '']: {
            id: d.trainCarId ?? '',
            queueName: d.queueName,
            original,
            originalBatch: d.originalBatch,
            depth: d.bisectionDepth,
            pending: original,
            culprits: [],
            capReached: false,
            droppedUnverified: [],
            checkPullRequests: d.batchPullRequestNumbers,
          },
        },
      };
    }

    case 'merge_queue.batch_bisection_ended': {
      const bisections = { ...base.bisections };
      delete bisections[event.data.trainCarId ?? ''];
      return { ...base, bisections };
    }

    case 'merge_queue.pull_request_merged': {
      const number = event.data.pullRequest;
      let next = withMerged(withoutPullRequest(base, number, false), number);
      for (const pr of Object.values(next.pullRequests)) {
        if (pr.deferredBy?.includes(number))
          next = withPullRequest(next, pr.number, (p) => ({ ...p, blockerMerged: true }));
      }
      return next;
    }

    case 'merge_queue.pull_request_left': {
      const d = event.data;
      if (d.merged || !base.pullRequests[d.pullRequest]) return base;
      const departure =
        d.dequeueCode !== null && holdsRulesBack(d.dequeueCode)
          ? { code: d.dequeueCode, headSha: d.pullRequestHeadSha, leftAt: at }
          : null;
      const culprit = d.dequeueCode === 'CHECKS_FAILED' || d.dequeueCode === 'CHECKS_TIMEOUT';
      const left = withDeparture(withoutPullRequest(base, d.pullRequest, culprit), d.pullRequest, departure);
      const next = d.dequeueCode === 'PR_MANUALLY_MERGED' ? withMerged(left, d.pullRequest) : left;
      if (d.dequeueCode !== 'BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS') return next;
      const bisections: Record<string, Bisection> = {};
      for (const [id, b] of Object.entries(next.bisections))
        bisections[id] = b.original.includes(d.pullRequest)
          ? { ...b, capReached: true, droppedUnverified: [...(b.droppedUnverified ?? []), d.pullRequest] }
          : b;
      return { ...next, bisections };
    }

    case 'merge_queue.conflict_deferred':
      return withPullRequest(base, event.data.pullRequest, (pr) => ({
        ...pr,
        deferredBy: event.data.blockingPullRequests,
        blockerMerged: false,
      }));

    case 'merge_queue.running_checks_changed':
      return { ...base, runningChecksReported: event.data.runningChecks };

    case 'merge_queue.pause_observed':
      return { ...base, paused: event.data.paused, pauseReason: event.data.reason };

    case 'merge_queue.freeze_observed': {
      const frozen = new Set(event.data.frozenPullRequests);
      const pullRequests: Record<number, QueueEntry> = {};
      for (const pr of Object.values(base.pullRequests)) {
        const isFrozen = frozen.has(pr.number);
        if (isFrozen && pr.frozenSince === null) pullRequests[pr.number] = { ...pr, frozenSince: at };
        else if (!isFrozen && pr.frozenSince !== null)
          pullRequests[pr.number] = {
            ...pr,
            frozenSince: null,
            secondsFrozen: pr.secondsFrozen + Math.max(0, Math.round((at - pr.frozenSince) / 1000)),
          };
        else pullRequests[pr.number] = pr;
      }
      return { ...base, pullRequests };
    }

    case 'merge_queue.scopes_set':
      return withPullRequest(base, event.data.pullRequest, (pr) => ({
        ...pr,
        scopes: event.data.scopes,
        allScopes: event.data.allScopes,
      }));

    case 'merge_queue.base_moved':
      return {
        ...base,
        baseSha: event.data.sha,
        ownShas: event.data.byQueue ? [...base.ownShas, event.data.sha].slice(-OWN_SHAS_KEPT) : base.ownShas,
      };

    case 'merge_queue.priority_changed':
      return withPullRequest(base, event.data.pullRequest, (pr) => ({
        ...pr,
        priority: event.data.priority,
        priorityRuleName: event.data.priorityRuleName,
        allowCheckInterruption: event.data.allowCheckInterruption,
      }));

    case 'merge_queue.draft_orphaned':
      return { ...base, draftsToClose: [...base.draftsToClose, event.data.checkPullRequest] };

    case 'merge_queue.draft_closed':
      return { ...base, draftsToClose: base.draftsToClose.filter((n) => n !== event.data.checkPullRequest) };

    case 'merge_queue.draft_branch_deleted':
      return {
        ...base,
        branchesToDelete: (base.branchesToDelete ?? []).filter((b) => b !== event.data.branch),
      };

    case 'merge_queue.dequeue_requested':
      return withPullRequest(base, event.data.pullRequest, (pr) => ({ ...pr, dequeueRequested: true }));

    case 'merge_queue.merge_postponed':
      return withPullRequest(base, event.data.pullRequest, (pr) => ({
        ...pr,
        mergeRetryAt: ms(event.data.retryAt),
      }));

    case 'merge_queue.queue_size_changed':
    case 'merge_queue.checks_postponed':
    case 'pull_request.command_received':
      return base;
  }
}

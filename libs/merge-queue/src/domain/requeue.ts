import type { DequeueCode } from './events';

/**
 * Why a pull request left the queue for good, as the queue remembers it: a queue rule does not put
 * it back until something changed (queue-semantics §1.8, §1.9; docs/queue-behaviour.md, "The
 * re-queue rule"). Folded from the queue's own `pull_request_left` events, so it survives restarts
 * and replays like everything else the queue knows.
 */
export interface Departure {
  code: DequeueCode;
  /** The head it left with: a new head is the change that lets a rule queue it again. */
  headSha: string;
  /** Epoch ms of the leave. */
  leftAt: number;
}

/**
 * Leaves after which a rule queues the pull request again only once its head changed. Each says
 * something is wrong with the pull request as it is, or needs a person to look (checks failed or
 * timed out, a conflict, a failed merge or branch update, someone pushed to its draft): queuing the
 * same head again would fail the same way, forever. Leaves that are not listed follow a change
 * already (a new head, a base or a configuration change), or merely say the queue conditions stopped
 * holding, and the rule queues the pull request again as soon as it matches.
 */
const NEEDS_NEW_HEAD: ReadonlySet<DequeueCode> = new Set<DequeueCode>([
  'CHECKS_FAILED',
  'CHECKS_TIMEOUT',
  'CONFLICT_WITH_BASE_BRANCH',
  'CONFLICT_WITH_PULL_AHEAD',
  'BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS',
  'PR_UNEXPECTEDLY_FAILED_TO_MERGE',
  'DRAFT_PULL_REQUEST_CHANGED',
  'DRAFT_PULL_REQUEST_CREATION_FAILED',
  'BRANCH_UPDATE_FAILED',
  'UNPROCESSABLE_PULL_REQUEST',
  'INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS',
]);

/** A person took it out (`@mergify dequeue`, the API): only a person puts it back (a command). */
const NEEDS_COMMAND: ReadonlySet<DequeueCode> = new Set<DequeueCode>(['PR_MANUALLY_DEQUEUED']);

/** Whether a leave with this code is remembered: only these hold a rule back. */
export const holdsRulesBack = (code: DequeueCode): boolean =>
  NEEDS_NEW_HEAD.has(code) || NEEDS_COMMAND.has(code);

/** Whether the leave needs a `@mergify queue` command, whatever the head. */
export const needsCommand = (code: DequeueCode): boolean => NEEDS_COMMAND.has(code);

/**
 * Whether a queue rule may queue the pull request again at `headSha`: not after a leave that holds
 * rules back, until its head changed (or, after a manual dequeue, at all). A command always may.
 */
export const ruleMayRequeue = (departure: Departure | undefined, headSha: string): boolean => {
  if (!departure || !holdsRulesBack(departure.code)) return true;
  if (needsCommand(departure.code)) return false;
  return departure.headSha !== headSha;
};

/** Departures a queue keeps, the most recent ones: enough for every pull request still open after a failure. */
export const DEPARTURES_KEPT = 200;

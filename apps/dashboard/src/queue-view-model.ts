import type {
  BatchJson,
  LogEventJson,
  PullRequestJson,
  QueueStatusJson,
  ScheduledFreezeJson,
} from './api-types';

/** A queue's state at a glance: what the repositories page shows beside each branch. */
export type QueueState =
  | { kind: 'paused'; reason: string }
  | { kind: 'frozen'; reason: string }
  | { kind: 'running'; batches: number; waiting: number }
  | { kind: 'idle' };

/**
 * Paused wins (nothing moves), then frozen (a freeze holds merges), then running (a batch runs or
 * pull requests wait), else idle. A freeze is ongoing from its start, until its end if it has one;
 * freeze times are wall-clock times in its own timezone, so the status's own frozen marks count too.
 */
export function queueStateOf(
  status: QueueStatusJson,
  freezes: readonly ScheduledFreezeJson[],
  ongoing: (freeze: ScheduledFreezeJson) => boolean,
): QueueState {
  if (status.pause?.paused) return { kind: 'paused', reason: status.pause.reason ?? 'no reason given' };
  const freeze = freezes.find(ongoing);
  const frozenInStatus =
    status.batches.some((batch) => batch.status.code === 'frozen') ||
    status.waiting_pull_requests.some((pull) => pull.is_frozen === true);
  if (freeze || frozenInStatus)
    return { kind: 'frozen', reason: freeze?.reason ?? 'a scheduled freeze holds merges' };
  const waiting = status.waiting_pull_requests.length;
  if (status.batches.length > 0 || waiting > 0)
    return { kind: 'running', batches: status.batches.length, waiting };
  return { kind: 'idle' };
}

/** How a queue's state reads in one short line. */
export function describeQueueState(state: QueueState): string {
  switch (state.kind) {
    case 'paused':
      return `Paused: ${state.reason}`;
    case 'frozen':
      return `Frozen: ${state.reason}`;
    case 'running':
      return `Running: ${plural(state.batches, 'batch', 'batches')}, ${plural(state.waiting, 'pull request', 'pull requests')} waiting`;
    case 'idle':
      return 'Idle: nothing queued';
  }
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The words for each batch status code (spec BatchStatus.code). */
export const BATCH_CODE_WORDS: Readonly<Record<string, string>> = {
  running: 'CI running',
  bisecting: 'Bisecting a failure',
  preparing: 'Preparing',
  failed: 'Failed',
  merged: 'Merged',
  waiting_for_merge: 'Passed, merging',
  waiting_for_previous_batches: 'Waiting for the batches ahead',
  waiting_for_requeue: 'Waiting to be requeued',
  waiting_schedule: 'Waiting for the merge schedule',
  waiting_for_batch: 'Waiting to fill the batch',
  waiting_for_checks_slot: 'Waiting for a CI slot',
  frozen: 'Frozen',
};

/** One car of the train: a running batch as the queue page draws it. */
export interface TrainCar {
  id: string;
  name: string;
  state: string;
  code: string;
  checks: string;
  /** Passed checks out of all, 0..1; null before any check is known. */
  progress: number | null;
  draft: number | null;
  pullRequests: Pick<PullRequestJson, 'number' | 'title' | 'url'>[];
  eta: string | null;
}

export function trainOf(status: QueueStatusJson): TrainCar[] {
  return status.batches.map((batch: BatchJson) => ({
    id: batch.id,
    name: batch.name,
    code: batch.status.code,
    state: BATCH_CODE_WORDS[batch.status.code] ?? batch.status.code,
    checks: `${batch.checks_summary.passed}/${batch.checks_summary.total} checks passed`,
    progress:
      batch.checks_summary.total === 0 ? null : batch.checks_summary.passed / batch.checks_summary.total,
    draft: batch.queue_pull_request_number ?? null,
    pullRequests: batch.pull_requests.map(({ number, title, url }) => ({ number, title, url })),
    eta: batch.estimated_merge_at,
  }));
}

/** A waiting pull request's row, in queue order. */
export interface WaitingRow {
  position: number;
  number: number;
  title: string;
  author: string;
  priority: string;
  scopes: string;
  eta: string | null;
  frozen: boolean;
  dequeueRequested: boolean;
}

export function waitingRowsOf(status: QueueStatusJson): WaitingRow[] {
  return status.waiting_pull_requests.map((pull, index) => ({
    position: index + 1,
    number: pull.number,
    title: pull.title,
    author: pull.author.login,
    priority: pull.priority_alias || pull.priority_rule_name,
    scopes: pull.scopes.length === 0 ? '—' : pull.scopes.join(', '),
    eta: pull.estimated_merge_at ?? null,
    frozen: pull.is_frozen === true,
    dequeueRequested: pull.dequeue_requested === true,
  }));
}

/** "in 12 min", "3 h ago": an instant relative to now, as a person reads it. */
export function relativeTime(iso: string | null, now: number): string {
  if (iso === null) return 'unknown';
  const ms = Date.parse(iso) - now;
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const amount =
    minutes < 1 ? 'under a minute' : minutes < 90 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
  if (minutes < 1) return ms >= 0 ? 'in under a minute' : 'just now';
  return ms >= 0 ? `in ${amount}` : `${amount} ago`;
}

/** Why a pull request left the queue, in plain words (spec abort_code values). */
const ABORT_CODE_WORDS: Readonly<Record<string, string>> = {
  PR_DEQUEUED: 'It was removed from the queue.',
  PR_DEQUEUED_FROM_PARTITION: 'It was removed from its partition of the queue.',
  PR_AHEAD_DEQUEUED: 'A pull request ahead of it left the queue, so its checks restarted.',
  BATCH_AHEAD_FAILED: 'A batch ahead of it failed, so its checks restarted.',
  PR_WITH_HIGHER_PRIORITY_QUEUED: 'A pull request with a higher priority was queued ahead of it.',
  SCHEDULED_FREEZE_STATUS_CHANGED: 'A scheduled freeze started or ended.',
  SPECULATIVE_CHECK_NUMBER_REDUCED: 'The queue now runs fewer checks in parallel.',
  CHECKS_TIMEOUT: 'Its checks did not finish in time.',
  CHECKS_FAILED: 'Its checks failed.',
  QUEUE_RULE_MISSING: 'Its queue rule no longer exists in the configuration.',
  BASE_BRANCH_MISSING: 'Its base branch no longer exists.',
  BASE_BRANCH_CHANGED: 'Its base branch changed.',
  PR_UNEXPECTEDLY_FAILED_TO_MERGE: 'The code host refused to merge it.',
  BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS:
    'Its batch failed and bisection ran out of attempts to find the culprit.',
  PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE: 'The merge queue was paused, which stopped its checks.',
  CONFLICT_WITH_BASE_BRANCH: 'It conflicts with its base branch.',
  CONFLICT_WITH_PULL_AHEAD: 'It conflicts with a pull request ahead of it.',
  BRANCH_UPDATE_FAILED: 'Its branch could not be updated.',
  DRAFT_PULL_REQUEST_CHANGED: 'The draft pull request its checks ran on was changed.',
  BATCH_PULL_REQUEST_CLOSED: 'The draft pull request its checks ran on was closed.',
  PULL_REQUEST_UPDATED: 'It was updated (new commits) while queued.',
  MERGE_QUEUE_RESET: 'The merge queue was reset.',
  INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS: "The base branch's protection rules forbid merging it this way.",
  PR_MANUALLY_MERGED: 'Someone merged it by hand.',
  DRAFT_PULL_REQUEST_CREATION_FAILED: 'The draft pull request for its checks could not be created.',
  DRAFT_PULL_REQUEST_CREATION_BRANCH_NOT_INDEXED:
    'The draft pull request for its checks could not be created yet.',
  CONFIGURATION_CHANGED: 'The queue configuration changed.',
  UNPROCESSABLE_PULL_REQUEST: 'The queue could not process it.',
  PR_MANUALLY_DEQUEUED: 'Someone removed it from the queue.',
  STACK_PREDECESSOR_DEQUEUED: 'A pull request it is stacked on left the queue.',
  INTERMEDIATE_RESULTS_SKIPPED: 'It merged on the strength of a later batch that included it.',
  CHECKS_RETRIED: 'Its checks were retried.',
};

export function abortCodeInWords(code: string | null | undefined, reason?: string | null): string {
  const words = code ? ABORT_CODE_WORDS[code] : undefined;
  if (words && reason) return `${words} (${reason})`;
  return words ?? reason ?? 'It left the queue.';
}

/** One step of a pull request's story. */
export interface TimelineStep {
  id: number;
  at: string;
  title: string;
  detail: string | null;
  outcome: LogEventJson['outcome'];
  links: { label: string; url: string }[];
}

/** The activity log's records for one pull request, oldest first, told as its story. */
export function timelineOf(events: readonly LogEventJson[]): TimelineStep[] {
  return [...events]
    .sort((a, b) => Date.parse(a.received_at) - Date.parse(b.received_at) || a.id - b.id)
    .map((event) => ({
      id: event.id,
      at: event.received_at,
      outcome: event.outcome,
      ...storyOf(event),
    }));
}

type Metadata = Record<string, unknown>;
const numbers = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((n) => typeof n === 'number') : [];
const list = (values: number[]) => values.map((n) => `#${n}`).join(', ');

function storyOf(event: LogEventJson): Pick<TimelineStep, 'title' | 'detail' | 'links'> {
  const m: Metadata = event.metadata ?? {};
  switch (event.type) {
    case 'action.queue.enter':
      return { title: `Entered the ${String(m.queue_name ?? '')} queue`, detail: null, links: [] };
    case 'action.queue.checks_start': {
      const spec = (m.speculative_check_pull_request ?? {}) as Metadata;
      const batch = numbers(m.pull_request_numbers);
      return {
        title: 'Queue checks started',
        detail: `${spec.in_place ? 'On the pull request itself' : `On draft #${String(spec.number ?? '?')}`}, batch ${list(batch)}`,
        links: [],
      };
    }
    case 'action.queue.checks_end': {
      const spec = (m.speculative_check_pull_request ?? {}) as Metadata;
      const failing = Array.isArray(spec.unsuccessful_checks) ? (spec.unsuccessful_checks as Metadata[]) : [];
      return {
        title: m.aborted
          ? 'Queue checks ended early'
          : `Queue checks ended: ${String(spec.checks_conclusion ?? '')}`,
        detail: m.aborted
          ? abortCodeInWords(m.abort_code as string | null, m.abort_reason as string | null)
          : null,
        links: failing
          .filter((check) => typeof check.url === 'string' && check.url !== '')
          .map((check) => ({ label: `Failing check: ${String(check.name)}`, url: String(check.url) })),
      };
    }
    case 'action.queue.batch_bisection_start':
      return {
        title: 'Bisection started',
        detail: `Batch ${list(numbers(m.original_batch_pr_numbers))} split into ${String(m.number_of_sub_batches ?? '?')} (depth ${String(m.bisection_depth ?? '?')})`,
        links: [],
      };
    case 'action.queue.batch_bisection_end':
      return {
        title: 'Bisection ended',
        detail: m.culprit_found
          ? `Culprit found: ${list(numbers(m.culprit_pr_numbers))}`
          : m.max_failure_resolution_reached
            ? 'No culprit found before the attempts ran out'
            : 'No culprit found',
        links: [],
      };
    case 'action.queue.merged':
      return { title: 'Merged by the queue', detail: null, links: [] };
    case 'action.queue.leave':
      return {
        title: m.merged ? 'Left the queue, merged' : 'Left the queue',
        detail: m.merged ? null : String(m.reason ?? ''),
        links: [],
      };
    case 'action.queue.change':
      return { title: 'Queue changed', detail: `${String(m.size ?? '?')} in the queue`, links: [] };
    case 'command.queue':
    case 'command.dequeue':
      return {
        title: `@${event.type === 'command.queue' ? 'queue' : 'dequeue'} command`,
        detail: `by ${String((m.author as Metadata | undefined)?.login ?? 'someone')}`,
        links:
          typeof m.trigger_comment_url === 'string'
            ? [{ label: 'The comment', url: m.trigger_comment_url }]
            : [],
      };
    default:
      return { title: event.type, detail: event.trigger || null, links: [] };
  }
}

/** The dequeue reason a pull request's story ends with, when it left without merging. */
export function dequeueReasonOf(events: readonly LogEventJson[]): string | null {
  const steps = [...events].sort(
    (a, b) => Date.parse(b.received_at) - Date.parse(a.received_at) || b.id - a.id,
  );
  const leave = steps.find((event) => event.type === 'action.queue.leave');
  if (!leave || leave.metadata.merged) return null;
  const ended = steps.find((event) => event.type === 'action.queue.checks_end' && event.metadata.aborted);
  const reason = String(leave.metadata.reason ?? '');
  if (ended)
    return abortCodeInWords(
      ended.metadata.abort_code as string | null,
      reason || (ended.metadata.abort_reason as string | null),
    );
  return reason || 'It left the queue.';
}

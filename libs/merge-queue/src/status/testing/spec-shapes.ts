/**
 * Shape checks of the status endpoints' answers against the spec's resources: required fields
 * present with their types, enums in range, timestamps in UTC with `Z`. Returns the problems found
 * (paths and what is wrong), empty when the answer fits.
 */
type Problems = string[];

export const BATCH_STATUS_CODES = [
  'running',
  'bisecting',
  'preparing',
  'failed',
  'merged',
  'waiting_for_merge',
  'waiting_for_previous_batches',
  'waiting_for_requeue',
  'waiting_schedule',
  'waiting_for_batch',
  'waiting_for_checks_slot',
  'frozen',
] as const;
const CHECK_STATES = [
  'failure',
  'error',
  'cancelled',
  'action_required',
  'timed_out',
  'pending',
  'neutral',
  'skipped',
  'stale',
  'success',
];
const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'date-time' | 'uuid';

function check(problems: Problems, path: string, value: unknown, kind: Kind, nullable = false): boolean {
  if (value === null) {
    if (!nullable) problems.push(`${path}: null`);
    return false;
  }
  const ok =
    kind === 'string'
      ? typeof value === 'string'
      : kind === 'integer'
        ? Number.isInteger(value)
        : kind === 'number'
          ? typeof value === 'number'
          : kind === 'boolean'
            ? typeof value === 'boolean'
            : kind === 'array'
              ? Array.isArray(value)
              : kind === 'object'
                ? typeof value === 'object' && !Array.isArray(value)
                : kind === 'date-time'
                  ? typeof value === 'string' && UTC.test(value)
                  : typeof value === 'string' && UUID.test(value);
  if (!ok) problems.push(`${path}: ${JSON.stringify(value)} is not ${kind}`);
  return ok;
}

function required(
  problems: Problems,
  path: string,
  object: Record<string, unknown>,
  fields: Record<string, [Kind, boolean?]>,
): void {
  for (const [field, [kind, nullable]] of Object.entries(fields)) {
    if (!(field in object)) problems.push(`${path}.${field}: missing`);
    else check(problems, `${path}.${field}`, object[field], kind, nullable ?? false);
  }
}

function optional(
  problems: Problems,
  path: string,
  object: Record<string, unknown>,
  fields: Record<string, [Kind, boolean?]>,
): void {
  for (const [field, [kind, nullable]] of Object.entries(fields))
    if (field in object) check(problems, `${path}.${field}`, object[field], kind, nullable ?? false);
}

function oneOf(problems: Problems, path: string, value: unknown, allowed: readonly string[]): void {
  if (!allowed.includes(value as string))
    problems.push(`${path}: ${JSON.stringify(value)} not in ${allowed.join('|')}`);
}

export function mergeQueuePullRequestProblems(pr: Record<string, unknown>, path = 'pull_request'): Problems {
  const problems: Problems = [];
  required(problems, path, pr, {
    number: ['integer'],
    title: ['string'],
    url: ['string'],
    author: ['object'],
    queued_at: ['date-time'],
    priority_alias: ['string'],
    priority_rule_name: ['string'],
    labels: ['array'],
    scopes: ['array'],
  });
  const author = pr.author as Record<string, unknown> | undefined;
  if (author) required(problems, `${path}.author`, author, { id: ['integer'], login: ['string'] });
  optional(problems, path, pr, {
    all_scopes: ['boolean', true],
    github_labels: ['array', true],
    estimated_merge_at: ['date-time', true],
    estimated_ci_finish_at: ['date-time', true],
    conflict_with_pull_requests: ['array', true],
    batch_reason: ['object', true],
    is_frozen: ['boolean', true],
    dequeue_requested: ['boolean', true],
    depends_on_pull_requests: ['array', true],
  });
  for (const [i, label] of ((pr.github_labels as Array<Record<string, unknown>> | null) ?? []).entries())
    required(problems, `${path}.github_labels[${i}]`, label, {
      id: ['integer'],
      name: ['string'],
      color: ['string'],
      default: ['boolean'],
    });
  const reason = pr.batch_reason as Record<string, unknown> | null | undefined;
  if (reason) {
    required(problems, `${path}.batch_reason`, reason, {
      kind: ['string'],
      shared_scopes: ['array'],
      shared_directories: ['array'],
      peer_pull_request_numbers: ['array'],
      affinity_score: ['number'],
    });
    oneOf(problems, `${path}.batch_reason.kind`, reason.kind, ['scope', 'directory', 'queue_order']);
  }
  return problems;
}

export function batchProblems(batch: Record<string, unknown>, path = 'batch'): Problems {
  const problems: Problems = [];
  required(problems, path, batch, {
    id: ['uuid'],
    name: ['string'],
    parent_ids: ['array'],
    status: ['object'],
    started_at: ['date-time', true],
    estimated_merge_at: ['date-time', true],
    estimated_ci_finish_at: ['date-time', true],
    ci_finished_at: ['date-time', true],
    scopes: ['array'],
    queue_rule_name: ['string'],
    checks_summary: ['object'],
    pull_requests: ['array'],
  });
  optional(problems, path, batch, {
    all_scopes: ['boolean', true],
    checks_timeout_at: ['date-time', true],
    intermediate_results_skipped: ['boolean'],
    queue_pull_request_number: ['integer', true],
    sub_batches: ['array', true],
  });
  for (const [i, id] of ((batch.parent_ids as unknown[]) ?? []).entries())
    check(problems, `${path}.parent_ids[${i}]`, id, 'uuid');
  const status = batch.status as Record<string, unknown> | undefined;
  if (status) {
    required(problems, `${path}.status`, status, {
      code: ['string'],
      retries: ['integer'],
      max_retries: ['integer'],
    });
    optional(problems, `${path}.status`, status, {
      batch_filled_slots: ['integer', true],
      max_batch_slots: ['integer', true],
      batch_max_start_at: ['date-time', true],
    });
    oneOf(problems, `${path}.status.code`, status.code, BATCH_STATUS_CODES);
  }
  const summary = batch.checks_summary as Record<string, unknown> | undefined;
  if (summary)
    required(problems, `${path}.checks_summary`, summary, { passed: ['integer'], total: ['integer'] });
  for (const [i, pr] of ((batch.pull_requests as Array<Record<string, unknown>>) ?? []).entries())
    problems.push(...mergeQueuePullRequestProblems(pr, `${path}.pull_requests[${i}]`));
  for (const [i, sub] of ((batch.sub_batches as Array<Record<string, unknown>> | null) ?? []).entries())
    problems.push(...batchProblems(sub, `${path}.sub_batches[${i}]`));
  return problems;
}

export function mergeQueueStatusProblems(status: Record<string, unknown>): Problems {
  const problems: Problems = [];
  required(problems, 'status', status, {
    batches: ['array'],
    waiting_pull_requests: ['array'],
    mode: ['string'],
  });
  oneOf(problems, 'status.mode', status.mode, ['serial', 'parallel', 'isolated']);
  optional(problems, 'status', status, { scope_queues: ['object'], pause: ['object', true] });
  for (const [i, batch] of ((status.batches as Array<Record<string, unknown>>) ?? []).entries())
    problems.push(...batchProblems(batch, `status.batches[${i}]`));
  for (const [i, pr] of ((status.waiting_pull_requests as Array<Record<string, unknown>>) ?? []).entries())
    problems.push(...mergeQueuePullRequestProblems(pr, `status.waiting_pull_requests[${i}]`));
  const pause = status.pause as Record<string, unknown> | null | undefined;
  if (pause) {
    required(problems, 'status.pause', pause, { paused: ['boolean'] });
    optional(problems, 'status.pause', pause, { reason: ['string', true], paused_at: ['date-time', true] });
  }
  return problems;
}

export function queueCheckProblems(check: Record<string, unknown>, path: string): Problems {
  const problems: Problems = [];
  required(problems, path, check, {
    name: ['string'],
    description: ['string'],
    url: ['string', true],
    state: ['string'],
    avatar_url: ['string', true],
  });
  optional(problems, path, check, { details_url: ['string', true] });
  oneOf(problems, `${path}.state`, check.state, CHECK_STATES);
  return problems;
}

export function pullRequestDetailProblems(detail: Record<string, unknown>): Problems {
  const problems: Problems = [];
  required(problems, 'detail', detail, {
    number: ['integer'],
    queued_at: ['date-time'],
    estimated_time_of_merge: ['date-time', true],
    position: ['integer'],
    priority_rule_name: ['string'],
    queue_rule_name: ['string'],
    checks_timeout_at: ['date-time', true],
    queue_rule: ['object'],
    mergeability_check: ['object', true],
  });
  const rule = detail.queue_rule as Record<string, unknown> | undefined;
  if (rule) required(problems, 'detail.queue_rule', rule, { name: ['string'], config: ['object'] });
  const mc = detail.mergeability_check as Record<string, unknown> | null | undefined;
  if (mc) {
    required(problems, 'detail.mergeability_check', mc, {
      check_type: ['string'],
      queue_pull_request_number: ['integer'],
      started_at: ['date-time', true],
      ci_ended_at: ['date-time', true],
      ci_state: ['string'],
      state: ['string'],
      checks: ['array'],
      conditions_evaluation: ['object', true],
    });
    oneOf(problems, 'detail.mergeability_check.check_type', mc.check_type, [
      'in_place',
      'draft_pr',
      'trusted',
    ]);
    oneOf(problems, 'detail.mergeability_check.ci_state', mc.ci_state, ['pending', 'success', 'failed']);
    for (const [i, c] of ((mc.checks as Array<Record<string, unknown>>) ?? []).entries())
      problems.push(...queueCheckProblems(c, `detail.mergeability_check.checks[${i}]`));
    const evaluation = mc.conditions_evaluation as Record<string, unknown> | null | undefined;
    if (evaluation)
      problems.push(
        ...conditionEvaluationProblems(evaluation, 'detail.mergeability_check.conditions_evaluation'),
      );
  }
  return problems;
}

/** The spec's ConditionEvaluation, recursively, with its per-pull-request Evaluations. */
export function conditionEvaluationProblems(node: Record<string, unknown>, path: string): Problems {
  const problems: Problems = [];
  required(problems, path, node, {
    match: ['boolean'],
    label: ['string'],
    description: ['string', true],
    documentation_url: ['string', true],
    schedule: ['object', true],
    subconditions: ['array'],
    evaluations: ['array'],
  });
  for (const [i, evaluation] of ((node.evaluations as Array<Record<string, unknown>>) ?? []).entries())
    required(problems, `${path}.evaluations[${i}]`, evaluation, {
      pull_request: ['integer'],
      match: ['boolean'],
      evaluation_error: ['string', true],
      related_checks: ['array'],
      next_evaluation_at: ['date-time', true],
    });
  for (const [i, sub] of ((node.subconditions as Array<Record<string, unknown>>) ?? []).entries())
    problems.push(...conditionEvaluationProblems(sub, `${path}.subconditions[${i}]`));
  return problems;
}

export function pullRequestQueuedProblems(pr: Record<string, unknown>, path: string): Problems {
  const problems: Problems = [];
  required(problems, path, pr, {
    number: ['integer'],
    position: ['integer'],
    priority: ['integer'],
    effective_priority: ['integer'],
    priority_alias: ['string'],
    queue_rule: ['object'],
    queued_at: ['date-time'],
    speculative_check_pull_request: ['object', true],
    mergeability_check: ['object', true],
    estimated_time_of_merge: ['date-time', true],
    partition_name: ['string'],
  });
  const mc = pr.mergeability_check as Record<string, unknown> | null | undefined;
  if (mc) {
    required(problems, `${path}.mergeability_check`, mc, {
      check_type: ['string'],
      pull_request_number: ['integer'],
      started_at: ['date-time', true],
      ended_at: ['date-time', true],
      state: ['string'],
    });
    oneOf(problems, `${path}.mergeability_check.state`, mc.state, CHECK_STATES);
  }
  const sc = pr.speculative_check_pull_request as Record<string, unknown> | null | undefined;
  if (sc) {
    required(problems, `${path}.speculative_check_pull_request`, sc, {
      in_place: ['boolean'],
      number: ['integer'],
      started_at: ['date-time', true],
      ended_at: ['date-time', true],
      checks: ['array'],
      evaluated_conditions: ['string'],
      state: ['string'],
    });
    oneOf(problems, `${path}.speculative_check_pull_request.state`, sc.state, CHECK_STATES);
  }
  return problems;
}

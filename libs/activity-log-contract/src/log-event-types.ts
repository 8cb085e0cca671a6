/**
 * Every activity-log event type of the spec ("Event types"), the values of `type` and of the
 * event_type / not_event_type filters.
 */
export const LOG_EVENT_TYPES = [
  'action.assign',
  'action.backport',
  'action.close',
  'action.comment',
  'action.copy',
  'action.delete_head_branch',
  'action.dequeue',
  'action.dismiss_reviews',
  'action.edit',
  'action.github_actions',
  'action.label',
  'action.label.loop_stopped',
  'action.merge',
  'action.post_check',
  'action.queue.batch_bisection_end',
  'action.queue.batch_bisection_start',
  'action.queue.batch_composition',
  'action.queue.change',
  'action.queue.checks.change',
  'action.queue.checks_end',
  'action.queue.checks_postponed',
  'action.queue.checks_start',
  'action.queue.conflict_deferred',
  'action.queue.enter',
  'action.queue.leave',
  'action.queue.merged',
  'action.rebase',
  'action.refresh',
  'action.request_reviews',
  'action.review',
  'action.squash',
  'action.update',
  'ci_insights.auto_quarantine.disabled',
  'ci_insights.auto_quarantine.enabled',
  'ci_insights.auto_quarantine.modified',
  'ci_insights.job_retried',
  'command.dequeue',
  'command.queue',
  'product.disabled',
  'product.enabled',
  'queue.pause.create',
  'queue.pause.delete',
  'queue.pause.update',
  'scheduled_freeze.create',
  'scheduled_freeze.delete',
  'scheduled_freeze.update',
  'test.dequarantined',
  'test.quarantined',
] as const;

export type LogEventType = (typeof LOG_EVENT_TYPES)[number];

/** Deprecated names still accepted in filters; records are always stored under the current name. */
export const DEPRECATED_EVENT_TYPE_ALIASES: Readonly<Record<string, LogEventType>> = {
  'action.queue.checks_not_started': 'action.queue.checks_postponed',
};

/** What a client may send in event_type / not_event_type. */
export const ACCEPTED_EVENT_TYPE_FILTERS: readonly string[] = [
  ...LOG_EVENT_TYPES,
  ...Object.keys(DEPRECATED_EVENT_TYPE_ALIASES),
];

const KNOWN = new Set<string>(LOG_EVENT_TYPES);

export const isLogEventType = (value: string): value is LogEventType => KNOWN.has(value);

export const canonicalEventType = (value: string): string => DEPRECATED_EVENT_TYPE_ALIASES[value] ?? value;

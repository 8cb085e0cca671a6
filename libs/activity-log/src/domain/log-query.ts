import { clampToStorableInstant, unprocessable } from '@switchyard/kernel';
import { canonicalEventType } from '@switchyard/activity-log-contract';
import type { Outcome } from './outcome';

/** An include list or an exclude list over one dimension of the log. */
export interface ValueFilter<T> {
  mode: 'include' | 'exclude';
  values: readonly T[];
}

export interface LogFilters {
  pullRequest?: ValueFilter<number>;
  batchPullRequest?: ValueFilter<number>;
  eventType?: ValueFilter<string>;
  outcome?: ValueFilter<Outcome>;
  trigger?: ValueFilter<string>;
  baseRef?: string;
}

/** received_from and received_to, both inclusive. */
export interface TimeWindow {
  from: Date;
  to: Date;
}

export interface LogQuery {
  /** `owner/repository`, lower-cased. */
  repository: string;
  window: TimeWindow;
  filters: LogFilters;
}

/**
 * The filter parameters of GET logs and GET logs/aggregate once the HTTP layer has parsed and
 * range-checked them (named as on the wire, since the errors below quote those names).
 */
export interface LogQueryParameters {
  pull_request?: readonly number[];
  not_pull_request?: readonly number[];
  base_ref?: string;
  batch_pull?: readonly number[];
  not_batch_pull?: readonly number[];
  event_type?: readonly string[];
  not_event_type?: readonly string[];
  outcome?: readonly Outcome[];
  not_outcome?: readonly Outcome[];
  trigger?: readonly string[];
  not_trigger?: readonly string[];
  received_from?: Date;
  received_to?: Date;
}

export const DEFAULT_WINDOW_MS = 24 * 3600 * 1000;
export const MAX_WINDOW_DAYS = 93;
const MAX_WINDOW_MS = MAX_WINDOW_DAYS * 24 * 3600 * 1000;

/** The client quotes this text verbatim (client-contract E12). */
export const WINDOW_TOO_WIDE = `'received_from' and 'received_to' cannot span more than ${MAX_WINDOW_DAYS} days`;
export const WINDOW_REVERSED = `'received_from' must not be after 'received_to'`;
export const mutuallyExclusive = (include: string, exclude: string): string =>
  `'${include}' and '${exclude}' are mutually exclusive`;

type ListKey = Exclude<keyof LogQueryParameters, 'base_ref' | 'received_from' | 'received_to'>;

const present = (values: readonly unknown[] | undefined): boolean =>
  values !== undefined && values.length > 0;

function valueFilter<T>(
  params: LogQueryParameters,
  include: ListKey,
  exclude: ListKey,
  normalize: (value: T) => T = (value) => value,
): ValueFilter<T> | undefined {
  const included = params[include] as readonly T[] | undefined;
  const excluded = params[exclude] as readonly T[] | undefined;
  if (present(included) && present(excluded)) throw unprocessable(mutuallyExclusive(include, exclude));
  const chosen = present(included) ? included : present(excluded) ? excluded : undefined;
  if (!chosen) return undefined;
  // Repeated values mean nothing more (the spec's lists are sets).
  const values = [...new Set(chosen.map(normalize))];
  return { mode: present(included) ? 'include' : 'exclude', values };
}

/**
 * The window: received_to defaults to now, received_from to one day before received_to; a window
 * wider than 93 days or running backwards is refused (422 with a string detail).
 */
export function resolveWindow(from: Date | undefined, to: Date | undefined, now: Date): TimeWindow {
  const end = to ?? now;
  // A window ending early in year 1 starts at the earliest storable instant, not before it.
  const start = from ?? clampToStorableInstant(end.getTime() - DEFAULT_WINDOW_MS);
  if (start.getTime() > end.getTime()) throw unprocessable(WINDOW_REVERSED);
  if (end.getTime() - start.getTime() > MAX_WINDOW_MS) throw unprocessable(WINDOW_TOO_WIDE);
  return { from: start, to: end };
}

/** Turns validated parameters into a query, refusing combined include/exclude pairs. */
export function buildLogQuery(repository: string, params: LogQueryParameters, now: Date): LogQuery {
  const filters: LogFilters = {};
  const pullRequest = valueFilter<number>(params, 'pull_request', 'not_pull_request');
  const batchPullRequest = valueFilter<number>(params, 'batch_pull', 'not_batch_pull');
  const eventType = valueFilter<string>(params, 'event_type', 'not_event_type', canonicalEventType);
  const outcome = valueFilter<Outcome>(params, 'outcome', 'not_outcome');
  const trigger = valueFilter<string>(params, 'trigger', 'not_trigger');
  if (pullRequest) filters.pullRequest = pullRequest;
  if (batchPullRequest) filters.batchPullRequest = batchPullRequest;
  if (eventType) filters.eventType = eventType;
  if (outcome) filters.outcome = outcome;
  if (trigger) filters.trigger = trigger;
  if (params.base_ref !== undefined) filters.baseRef = params.base_ref;
  return {
    repository: repository.toLowerCase(),
    window: resolveWindow(params.received_from, params.received_to, now),
    filters,
  };
}

import type { RecordedEvent } from '@switchyard/event-store';

/**
 * What a bounded context says about one of its domain events for the activity log. Each context keeps
 * one LogMapping table (domain event type -> records); the activity-log projection applies them all.
 * The record id and the outcome are not here: the projection assigns ids in feed order and derives
 * the outcome from the log type (and a few metadata fields) in one documented place.
 */
export interface LogRecordDraft {
  /** Activity-log event type, one of the spec's "Event types", e.g. `queue.pause.create`. */
  type: string;
  /** `owner/repository`, lower-cased (repository identity is case-insensitive). */
  repository: string;
  pullRequest: number | null;
  baseRef: string | null;
  trigger: string;
  receivedAt: Date;
  metadata: Record<string, unknown>;
  /** Batch or draft pull request numbers this record snapshots (checks start/end, bisection). */
  batchPullRequests?: number[];
}

export type LogMapper = (event: RecordedEvent) => LogRecordDraft[];

/** Domain event type -> mapper. Adding a domain event to the log is adding a row. */
export type LogMapping = Readonly<Record<string, LogMapper>>;

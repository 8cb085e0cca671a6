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

/**
 * The record of a repository-level event (a pause, a freeze, a quarantine): no pull request and no
 * base ref, received at the time the event carries.
 */
export const repositoryLogRecord = (
  data: { repository: string; at: string },
  type: string,
  trigger: string,
  metadata: Record<string, unknown>,
): LogRecordDraft => ({
  type,
  repository: data.repository,
  pullRequest: null,
  baseRef: null,
  trigger,
  receivedAt: new Date(data.at),
  metadata,
});

/** The mapping of a context whose mappers each read only their event's data, by event type. */
export const logMappingOfData = (
  mappers: Readonly<Record<string, (data: never) => LogRecordDraft[]>>,
): LogMapping =>
  Object.fromEntries(
    Object.entries(mappers).map(([type, mapper]) => [
      type,
      (event: RecordedEvent) => (mapper as (data: unknown) => LogRecordDraft[])(event.data),
    ]),
  );

import type { RecordedEvent } from '@switchyard/event-store';
import { deriveOutcome } from '../domain/outcome';
import type { LogMapper, LogMapping } from '@switchyard/activity-log-contract';

/** One log record ready for the table: the draft plus where it came from and its outcome. */
export interface LogRecordRow {
  /** The event's position in the feed: unique, and growing with the feed. */
  eventPosition: string;
  /** Position of the record among those its event produced (0-based). */
  ordinal: number;
  repository: string;
  receivedAt: Date;
  type: string;
  outcome: string;
  trigger: string;
  pullRequest: number | null;
  baseRef: string | null;
  batchPullRequests: readonly number[];
  metadata: Record<string, unknown>;
}

/** Merges the bounded contexts' tables; two contexts claiming one domain event type is a wiring bug. */
export function combineMappings(mappings: readonly LogMapping[]): ReadonlyMap<string, LogMapper> {
  const combined = new Map<string, LogMapper>();
  for (const mapping of mappings) {
    for (const [type, mapper] of Object.entries(mapping)) {
      if (combined.has(type)) throw new Error(`Two activity-log mappings for ${type}`);
      combined.set(type, mapper);
    }
  }
  return combined;
}

/** Runs the mapping of every event, in feed order; events nobody maps give no record. */
export function toLogRecordRows(
  mappers: ReadonlyMap<string, LogMapper>,
  events: readonly RecordedEvent[],
): LogRecordRow[] {
  const rows: LogRecordRow[] = [];
  for (const event of events) {
    const mapper = mappers.get(event.type);
    if (!mapper) continue;
    mapper(event).forEach((draft, ordinal) => {
      rows.push({
        eventPosition: event.position,
        ordinal,
        repository: draft.repository.toLowerCase(),
        receivedAt: draft.receivedAt,
        type: draft.type,
        outcome: deriveOutcome(draft.type, draft.metadata),
        trigger: draft.trigger,
        pullRequest: draft.pullRequest,
        baseRef: draft.baseRef,
        batchPullRequests: draft.batchPullRequests ?? [],
        metadata: draft.metadata,
      });
    });
  }
  return rows;
}

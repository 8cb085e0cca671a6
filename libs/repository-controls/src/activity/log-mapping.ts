import {
  actorMetadata,
  logMappingOfData,
  repositoryLogRecord,
  type LogMapping,
  type LogRecordDraft,
} from '@switchyard/activity-log-contract';
import type { ScheduledFreezeEvent } from '../domain/freeze/scheduled-freeze';
import type { MergeQueuePauseEvent } from '../domain/merge-queue-pause';
import { scheduledFreezeAttributesJson } from '../json/scheduled-freeze.json';

/**
 * Repository-control domain events -> activity-log records (spec "Events" metadata table). Pause and
 * freeze are repository-level: no pull request, no base ref; they come from the API, so trigger
 * "api"; received_at is the command time the event carries.
 */
type RepositoryControlEvent = MergeQueuePauseEvent | ScheduledFreezeEvent;
type DataOf<T extends RepositoryControlEvent['type']> = Extract<RepositoryControlEvent, { type: T }>['data'];
type Mapper<T extends RepositoryControlEvent['type']> = (data: DataOf<T>) => LogRecordDraft[];

export const API_TRIGGER = 'api';

const record = (data: { repository: string; at: string }, type: string, metadata: Record<string, unknown>) =>
  repositoryLogRecord(data, type, API_TRIGGER, metadata);

const mappers: { [T in RepositoryControlEvent['type']]: Mapper<T> } = {
  'merge_queue.paused': (d) => [
    record(d, 'queue.pause.create', { reason: d.reason, ...actorMetadata('created', d.actor) }),
  ],
  'merge_queue.pause_reason_changed': (d) => [
    record(d, 'queue.pause.update', { reason: d.reason, ...actorMetadata('updated', d.actor) }),
  ],
  'merge_queue.unpaused': (d) => [record(d, 'queue.pause.delete', actorMetadata('deleted', d.actor))],

  'scheduled_freeze.scheduled': (d) => [
    record(d, 'scheduled_freeze.create', {
      scheduled_freeze_attributes: scheduledFreezeAttributesJson(d.attributes),
      ...actorMetadata('created', d.actor),
      created_at: d.at,
    }),
  ],
  'scheduled_freeze.changed': (d) => [
    record(d, 'scheduled_freeze.update', {
      scheduled_freeze_attributes_before: scheduledFreezeAttributesJson(d.before),
      scheduled_freeze_attributes_after: scheduledFreezeAttributesJson(d.after),
      ...actorMetadata('updated', d.actor),
      updated_at: d.at,
    }),
  ],
  'scheduled_freeze.cancelled': (d) => [
    record(d, 'scheduled_freeze.delete', {
      scheduled_freeze_attributes: scheduledFreezeAttributesJson(d.attributes),
      // The spec types the reason as a string; a freeze deleted before it began may have none.
      reason: d.reason ?? '',
      ...actorMetadata('deleted', d.actor),
      deleted_at: d.at,
    }),
  ],
};

export const repositoryControlsLogMapping: LogMapping = logMappingOfData(mappers);

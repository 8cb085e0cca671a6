import { randomUUID } from 'node:crypto';
import type { EventData, JSONType, RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '../types';
import type { EventSchemas } from '../upcasting';
import { encodeEsdbPosition } from './esdb-position';

/**
 * Metadata keys the adapter adds: the schema version (our upcasters need it) and ESDB's own
 * correlation keys, which its system projections ($bc-) understand. They are stripped on read, so
 * callers get back exactly the metadata they wrote.
 */
const SCHEMA_VERSION = '$schemaVersion';
const CORRELATION_ID = '$correlationId';
const CAUSATION_ID = '$causationId';

export function toEventData(event: NewEvent, schemaVersion: number): EventData {
  const metadata: Record<string, unknown> = { ...event.metadata, [SCHEMA_VERSION]: schemaVersion };
  if (event.metadata?.correlationId) metadata[CORRELATION_ID] = event.metadata.correlationId;
  if (event.metadata?.causationId) metadata[CAUSATION_ID] = event.metadata.causationId;
  return {
    id: event.eventId ?? randomUUID(),
    contentType: 'application/json',
    type: event.type,
    data: event.data as JSONType,
    metadata: metadata as JSONType,
  };
}

/** Events of system streams and system types ($-prefixed) are the server's, never ours. */
export const isSystemEvent = (event: Pick<EsdbRecordedEvent, 'type' | 'streamId'>): boolean =>
  event.type.startsWith('$') || event.streamId.startsWith('$');

export function toRecordedEvent(event: EsdbRecordedEvent, schemas: EventSchemas): RecordedEvent {
  if (!event.position) {
    throw new Error(
      `EventStoreDB returned ${event.streamId}@${event.revision} without its $all position (needs 22.6+)`,
    );
  }
  const stored = parseJson(event.metadata) ?? {};
  const { [SCHEMA_VERSION]: schemaVersion, [CORRELATION_ID]: _c, [CAUSATION_ID]: _d, ...metadata } = stored;
  return schemas.upcast({
    streamId: event.streamId,
    revision: event.revision,
    position: encodeEsdbPosition(event.position),
    eventId: event.id,
    type: event.type,
    schemaVersion: typeof schemaVersion === 'number' ? schemaVersion : 1,
    data: (parseJson(event.data) ?? {}) as object,
    metadata: metadata as EventMetadata,
    recordedAt: event.created,
  });
}

/** The client parses JSON content itself; bytes only arrive for events written as binary by others. */
function parseJson(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Uint8Array) return JSON.parse(Buffer.from(value).toString('utf8'));
  return value as Record<string, unknown>;
}

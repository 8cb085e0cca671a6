import type { RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import { streamCategory } from '../stream-category';
import { EventSchemas } from '../upcasting';
import { isSystemEvent, toEventData, toRecordedEvent } from './esdb-events';
import { serverFilter } from './esdb-filter';
import { decodeEsdbPosition, encodeEsdbPosition } from './esdb-position';

describe('EventStoreDB positions', () => {
  it('round-trip, and compare as strings in the order of (commit, prepare)', () => {
    const positions = [
      { commit: 9n, prepare: 9n },
      { commit: 10n, prepare: 2n },
      { commit: 10n, prepare: 10n },
      { commit: 18_446_744_073_709_551_615n, prepare: 0n },
    ];
    const encoded = positions.map(encodeEsdbPosition);
    expect(encoded.map(decodeEsdbPosition)).toEqual(positions);
    expect([...encoded].reverse().sort()).toEqual(encoded);
    expect(() => decodeEsdbPosition('start')).toThrow('Not an EventStoreDB position');
  });
});

describe('EventStoreDB event mapping', () => {
  const schemas = new EventSchemas().register({
    type: 'Renamed',
    fromVersion: 1,
    upcast: (data) => ({ fullName: (data as { name: string }).name }),
  });

  it('writes JSON with the schema version and ESDB correlation keys in the metadata', () => {
    const data = toEventData(
      {
        eventId: '0f8c8e5e-6d4a-4f59-9a57-3b2f8c6d1e01',
        type: 'Renamed',
        data: { fullName: 'Ada' },
        metadata: { correlationId: 'c-1' },
      },
      schemas.currentVersion('Renamed'),
    );
    expect(data).toEqual({
      id: '0f8c8e5e-6d4a-4f59-9a57-3b2f8c6d1e01',
      contentType: 'application/json',
      type: 'Renamed',
      data: { fullName: 'Ada' },
      metadata: { correlationId: 'c-1', $correlationId: 'c-1', $schemaVersion: 2 },
    });
  });

  it('reads back the caller metadata only, and upcasts by the stored schema version', () => {
    const stored = {
      streamId: 'people-1',
      id: '0f8c8e5e-6d4a-4f59-9a57-3b2f8c6d1e02',
      isJson: true,
      revision: 4n,
      type: 'Renamed',
      created: new Date('2024-05-01T10:00:00Z'),
      data: { name: 'Ada' },
      metadata: { correlationId: 'c-1', $correlationId: 'c-1', $schemaVersion: 1 },
      position: { commit: 120n, prepare: 118n },
    } as EsdbRecordedEvent;

    expect(toRecordedEvent(stored, schemas)).toEqual({
      streamId: 'people-1',
      revision: 4n,
      position: encodeEsdbPosition({ commit: 120n, prepare: 118n }),
      eventId: stored.id,
      type: 'Renamed',
      schemaVersion: 2,
      data: { fullName: 'Ada' },
      metadata: { correlationId: 'c-1' },
      recordedAt: new Date('2024-05-01T10:00:00Z'),
    });
  });

  it('treats events without a schema version as version 1, and refuses events without a position', () => {
    const base = {
      streamId: 's',
      id: 'x',
      isJson: true,
      revision: 0n,
      type: 'Renamed',
      created: new Date(0),
    };
    const withoutVersion = {
      ...base,
      data: { name: 'Ada' },
      metadata: undefined,
      position: { commit: 1n, prepare: 1n },
    };
    expect(toRecordedEvent(withoutVersion as EsdbRecordedEvent, schemas).data).toEqual({ fullName: 'Ada' });
    const withoutPosition = { ...withoutVersion, position: undefined };
    expect(() => toRecordedEvent(withoutPosition as EsdbRecordedEvent, schemas)).toThrow('$all position');
  });

  it('recognises system events by type or stream', () => {
    expect(isSystemEvent({ type: '$metadata', streamId: 'orders-1' })).toBe(true);
    expect(isSystemEvent({ type: 'Anything', streamId: '$ce-orders' })).toBe(true);
    expect(isSystemEvent({ type: 'OrderPlaced', streamId: 'orders-1' })).toBe(false);
  });
});

describe('EventStoreDB subscription filter', () => {
  const noCheckpoint = () => undefined;

  it('filters on stream prefixes on the server when there are any', () => {
    expect(serverFilter({ streamPrefixes: ['repo_1%'], eventTypes: ['A'] }, noCheckpoint)).toMatchObject({
      filterOn: 'streamName',
      prefixes: ['repo_1%'],
    });
  });

  it('filters on stream categories by name on the server: the category, then the separator or the end', () => {
    const filter = serverFilter(
      { streamCategories: ['merge_queue', 'a.b'], eventTypes: ['A'] },
      noCheckpoint,
    );
    expect(filter.filterOn).toBe('streamName');
    const regex = new RegExp((filter as { regex: string }).regex);
    const streams = [
      'merge_queue-acme/widgets',
      'merge_queue',
      'a.b-1',
      'merge_queue_pause-x',
      'axb-1',
      'x-merge_queue-1',
    ];
    expect(streams.filter((stream) => regex.test(stream))).toEqual([
      'merge_queue-acme/widgets',
      'merge_queue',
      'a.b-1',
    ]);
    expect(streams.filter((stream) => regex.test(stream))).toEqual(
      streams.filter((stream) => ['merge_queue', 'a.b'].includes(streamCategory(stream))),
    );
  });

  it('matches event types exactly, special characters included, on the server', () => {
    const filter = serverFilter({ eventTypes: ['Pull.Merged', 'A+B'] }, noCheckpoint);
    expect(filter.filterOn).toBe('eventType');
    const regex = new RegExp((filter as { regex: string }).regex);
    expect(['Pull.Merged', 'A+B'].every((type) => regex.test(type))).toBe(true);
    expect(['PullxMerged', 'AAB', 'Pull.Merged2', '$metadata'].some((type) => regex.test(type))).toBe(false);
  });

  it('excludes system events when nothing else filters', () => {
    const regex = new RegExp((serverFilter(undefined, noCheckpoint) as { regex: string }).regex);
    expect(regex.test('OrderPlaced')).toBe(true);
    expect(regex.test('$statsCollected')).toBe(false);
  });

  it('reports checkpoints as positions', async () => {
    const seen: bigint[] = [];
    const filter = serverFilter(undefined, (position) => seen.push(position.commit));
    await filter.checkpointReached!(undefined as never, { commit: 7n, prepare: 7n });
    expect(seen).toEqual([7n]);
  });
});

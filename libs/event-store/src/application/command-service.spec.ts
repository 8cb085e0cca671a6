import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { InMemoryEventStore } from '../in-memory/in-memory-event-store';
import { SqlEventStore } from '../sql/sql-event-store';
import { dropTestSchema } from '../testing/drop-test-schema';
import { foldingQueueDecider } from '../testing/queue-decider';
import type { EventStore } from '../types';
import { CommandService } from './command-service';

const facts = [
  { type: 'spec.fact_seen', data: { n: 1 } },
  { type: 'spec.fact_seen', data: { n: 2 } },
];

function describeRecording(open: () => EventStore) {
  it('records facts once under one key: a second recording appends nothing and says so', async () => {
    const store = open();
    const commands = new CommandService(store);
    const streamId = `facts-${randomUUID()}`;
    const idempotencyKey = `delivery:${randomUUID()}`;

    const first = await commands.record(streamId, facts, { source: 'spec' }, { idempotencyKey });
    expect(first.alreadyApplied).toBe(false);
    expect(first.position).not.toBeNull();
    // The exact batch again (a redelivery), then the first fact alone under the same key.
    expect(await commands.record(streamId, facts, { source: 'spec' }, { idempotencyKey })).toEqual({
      alreadyApplied: true,
      position: null,
    });
    expect(await commands.record(streamId, facts.slice(0, 1), {}, { idempotencyKey })).toEqual({
      alreadyApplied: true,
      position: null,
    });

    const { events } = await store.readStream(streamId);
    expect(events.map((event) => [event.type, event.data, event.metadata])).toEqual([
      ['spec.fact_seen', { n: 1 }, { source: 'spec' }],
      ['spec.fact_seen', { n: 2 }, { source: 'spec' }],
    ]);
  });

  it('records nothing and decides nothing once the fence says the caller lost its work', async () => {
    const store = open();
    const commands = new CommandService(store);
    const streamId = `fenced-${randomUUID()}`;
    const fence = () => {
      throw new Error('ownership lost');
    };
    await expect(
      commands.record(streamId, facts, {}, { idempotencyKey: randomUUID(), fence }),
    ).rejects.toThrow('ownership lost');
    await expect(
      commands.handle(streamId, foldingQueueDecider, { kind: 'enqueue', pullRequest: 1 }, {}, { fence }),
    ).rejects.toThrow('ownership lost');
    expect((await store.readStream(streamId)).exists).toBe(false);
  });
}

describe('CommandService.record on the in-memory store', () => {
  describeRecording(() => new InMemoryEventStore());
});

describeEachDatabase('CommandService.record', (database) => {
  let executor: SqlExecutor;
  let store: SqlEventStore;
  beforeAll(async () => {
    executor = await database.open();
    store = await SqlEventStore.open(executor);
  });
  afterAll(async () => {
    await store.close();
    await dropTestSchema(executor);
    await executor.close();
  });
  describeRecording(() => store);
});

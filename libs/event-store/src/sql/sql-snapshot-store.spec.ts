import { randomUUID } from 'node:crypto';
import { describeEachDatabase } from '@switchyard/testing';
import { dropTestSchema } from '../testing/drop-test-schema';
import { CommandService } from '../application/command-service';
import { loadStreamState } from '../application/stream-state';
import { foldingQueueDecider, snapshottingQueueDecider, type QueueCommand } from '../testing/queue-decider';
import { SqlEventStore } from './sql-event-store';
import type { SqlExecutor } from '@switchyard/sql';

describeEachDatabase('SqlSnapshotStore', (database) => {
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

  it('keeps the newest snapshot per stream, name and version, as JSON', async () => {
    const streamId = `snap-${randomUUID()}`;
    const base = { streamId, name: 'queue', version: 1 };
    const newer = { ...base, revision: 7n, eventId: randomUUID(), state: { queue: [1, 2], note: 'seven' } };
    await store.snapshots.write(newer);
    await store.snapshots.write({ ...base, revision: 3n, eventId: randomUUID(), state: { note: 'older' } });
    await store.snapshots.write({ ...base, version: 2, revision: 1n, eventId: randomUUID(), state: ['v2'] });
    expect(await store.snapshots.read(streamId, 'queue', 1)).toEqual(newer);
    expect((await store.snapshots.read(streamId, 'queue', 2))?.state).toEqual(['v2']);
    expect(await store.snapshots.read(streamId, 'other', 1)).toBeNull();
  });

  it('commands on a long stream fold from the snapshot and decide as a full fold does', async () => {
    const streamId = `queue-${randomUUID()}`;
    const decider = snapshottingQueueDecider(40);
    const commands = new CommandService(store);
    for (let pr = 1; pr <= 100; pr++) {
      const command: QueueCommand =
        pr % 7 ? { kind: 'enqueue', pullRequest: pr } : { kind: 'pause', reason: `r${pr}` };
      await commands.handle(streamId, decider, command);
      if (pr % 7 === 0) await commands.handle(streamId, decider, { kind: 'unpause' });
    }
    const fromSnapshot = await loadStreamState(store, streamId, decider);
    const fullFold = await loadStreamState(store, streamId, foldingQueueDecider);
    expect(fromSnapshot.foldedAfter).toBeGreaterThan(50n);
    expect(fromSnapshot.state).toEqual(fullFold.state);
    expect(fromSnapshot.revision).toBe(fullFold.revision);
  });
});

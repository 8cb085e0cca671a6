import { describeEachDatabase, eventually, scaledWait } from '@switchyard/testing';
import { openProjectionTestEnv, uniqueName, type ProjectionTestEnv } from '../test/projection-test-env';
import type { CheckpointUpdate } from './checkpoint-signal';
import { PgNotifyCheckpointSignal } from './pg-notify-checkpoint-signal';

describeEachDatabase('PgNotifyCheckpointSignal', (db) => {
  let env: ProjectionTestEnv;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
  });
  afterAll(() => env.close());

  it('delivers each published checkpoint to subscribers, in order', async () => {
    const signal = new PgNotifyCheckpointSignal(env.executor);
    const name = uniqueName('notify');
    const received: CheckpointUpdate[] = [];
    // The channel is shared by everything on this database: keep to our own projection name.
    const unsubscribe = await signal.subscribe((update) => {
      if (update.name !== name) return;
      received.push(update);
    });
    try {
      await signal.publish({ name, position: 'start' });
      await signal.publish({ name, position: '00000000000000000001:00000000000000000001' });
      await eventually('both checkpoints delivered', async () => received.length >= 2, {
        timeoutMs: scaledWait(20_000),
      });
      expect(received).toEqual([
        { name, position: 'start' },
        { name, position: '00000000000000000001:00000000000000000001' },
      ]);
    } finally {
      await unsubscribe();
    }
  });
});

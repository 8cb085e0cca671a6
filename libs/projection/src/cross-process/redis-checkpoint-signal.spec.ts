import { PgliteExecutor } from '@switchyard/sql';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { eventually, scaledWait, testRedisUrl } from '@switchyard/testing';
import { ProcessorRunner } from '../processor/processor-runner';
import { appendTypes, uniqueName } from '../test/projection-test-env';
import { RecordingLogger } from '../test/recording-logger';
import { tallyProjection } from '../test/tally-projection';
import type { CheckpointUpdate } from './checkpoint-signal';
import { CheckpointFreshness } from './checkpoint-freshness';
import { RedisCheckpointSignal } from './redis-checkpoint-signal';

const redisUrl = testRedisUrl();
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis('RedisCheckpointSignal', () => {
  const signals: RedisCheckpointSignal[] = [];
  const connect = () => {
    const signal = RedisCheckpointSignal.connect(redisUrl!, new RecordingLogger());
    signals.push(signal);
    return signal;
  };
  afterAll(async () => {
    await Promise.all(signals.map((signal) => signal.close()));
  });

  it('delivers each published checkpoint to subscribers of another connection, in order', async () => {
    const name = uniqueName('redis');
    const received: CheckpointUpdate[] = [];
    // Other suites may publish on the shared channel: keep to our own projection name.
    const unsubscribe = await connect().subscribe((update) => {
      if (update.name !== name) return;
      received.push(update);
    });
    const publisher = connect();
    await publisher.publish({ name, position: 'start' });
    await publisher.publish({ name, position: '00000000000000000001:00000000000000000001' });
    await eventually('both checkpoints delivered', async () => received.length >= 2, {
      timeoutMs: scaledWait(20_000),
    });
    await unsubscribe();
    expect(received).toEqual([
      { name, position: 'start' },
      { name, position: '00000000000000000001:00000000000000000001' },
    ]);
  });

  it('wakes CheckpointFreshness in another process when a runner publishes over it', async () => {
    const executor = await PgliteExecutor.open();
    const store = await SqlEventStore.open(executor);
    const name = uniqueName('redis');
    const runner = new ProcessorRunner(tallyProjection({ name, streamPrefix: `${name}-` }), {
      executor,
      store,
      logger: new RecordingLogger(),
      publisher: connect(),
    });
    const reader = new CheckpointFreshness({ executor, projections: [name], signal: connect() });
    await reader.start();
    try {
      const position = await appendTypes(store, `${name}-s`, ['A']);
      // Longer than jest's test timeout: returning true means the signal woke it.
      const waiting = reader.waitFor([name], position, 120_000);
      runner.start();
      expect(await waiting).toBe(true);
    } finally {
      await runner.stop();
      await reader.close();
      await store.close();
      await executor.close();
    }
  });
});

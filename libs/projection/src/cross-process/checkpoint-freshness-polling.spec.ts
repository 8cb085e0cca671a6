import { describeEachDatabase } from '@switchyard/testing';
import { advanceCheckpoint, resetCheckpoint } from '../checkpoint/checkpoint-store';
import { ensureCheckpointTable } from '../checkpoint/checkpoint-table';
import {
  appendTypes,
  openProjectionTestEnv,
  uniqueName,
  type ProjectionTestEnv,
} from '../test/projection-test-env';
import { CheckpointFreshness } from './checkpoint-freshness';

/** Longer than jest's test timeout: a wait that returns true saw the table move, not its last look. */
const REACHED_ONLY = 120_000;

/** A channel nothing is ever published on: a process that runs projections without announcing them. */
const silence = { subscribe: async () => async () => undefined };

describeEachDatabase('CheckpointFreshness without any wake-up', (db) => {
  let env: ProjectionTestEnv;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
    await env.executor.transaction((tx) => ensureCheckpointTable(tx));
  });
  afterAll(() => env.close());

  it('re-reads the table while someone waits, so a checkpoint moved in silence still ends the wait', async () => {
    const name = uniqueName('silent');
    await resetCheckpoint(env.executor, name, 1);
    const reader = new CheckpointFreshness({
      executor: env.executor,
      projections: [name],
      signal: silence,
      pollIntervalMs: 50,
    });
    await reader.start();
    try {
      const position = await appendTypes(env.store, `${name}-s`, ['A']);
      const waiting = reader.waitFor([name], position, REACHED_ONLY);
      await env.executor.transaction((tx) =>
        advanceCheckpoint(tx, { name, version: 1, from: 'start', to: position }),
      );
      expect(await waiting).toBe(true);
    } finally {
      await reader.close();
    }
  });
});

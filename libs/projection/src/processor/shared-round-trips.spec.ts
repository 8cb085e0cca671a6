import { SqlEventStore } from '@switchyard/event-store/sql';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import type { Projection } from '../projection';
import {
  appendTypes,
  openProjectionTestEnv,
  runnersOn,
  uniqueName,
  type ProjectionTestEnv,
} from '../test/projection-test-env';

/** Every statement sent outside a transaction, by its first words. */
function countingExecutor(executor: SqlExecutor) {
  const sent: string[] = [];
  const counting: SqlExecutor = Object.create(executor) as SqlExecutor;
  counting.query = (sql, params, options) => {
    sent.push(sql.trim());
    return executor.query(sql, params, options);
  };
  return { counting, sent };
}

/** A projection that takes one type of its own and writes nothing. */
const quiet = (name: string): Projection => ({
  name,
  version: 1,
  eventTypes: [`${name}-only`],
  setup: async () => undefined,
  reset: async () => undefined,
  apply: async () => undefined,
});

describeEachDatabase('processors of one process share their round trips', (db) => {
  let env: ProjectionTestEnv;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
  });
  afterAll(() => env.close());

  it('after an append none of them takes, six read the feed once and move their checkpoints in one statement', async () => {
    const { counting, sent } = countingExecutor(env.executor);
    const store = await SqlEventStore.open(counting);
    const runners = runnersOn({ ...env, executor: counting, store });
    try {
      const started = Array.from({ length: 6 }, () =>
        runners.start(quiet(uniqueName('quiet')), { executor: counting, store }),
      );
      const before = await appendTypes(store, uniqueName('stream'), ['Warm-up']);
      await Promise.all(started.map((runner) => runner.waitFor(before)));
      sent.length = 0;

      const position = await appendTypes(store, uniqueName('stream'), ['Unrelated']);
      expect(await Promise.all(started.map((runner) => runner.waitFor(position)))).toEqual(
        started.map(() => true),
      );

      const feedReads = sent.filter(
        (sql) => sql.includes('FROM sy_events') && !sql.startsWith('SELECT r_outcome'),
      );
      const checkpointMoves = sent.filter((sql) => sql.startsWith('UPDATE sy_projection_checkpoints'));
      // Alone, each would read and move on its own: six of each. An append by another suite on a
      // shared server may cost one more round.
      expect(feedReads.length).toBeLessThanOrEqual(2);
      expect(checkpointMoves.length).toBeLessThanOrEqual(2);
    } finally {
      await runners.stopAll();
      await store.close();
    }
  });
});

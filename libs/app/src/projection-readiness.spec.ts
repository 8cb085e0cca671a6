import { SqlEventStore } from '@switchyard/event-store/sql';
import { type SqlExecutor } from '@switchyard/sql';
import { NotReadyError } from '@switchyard/http';
import {
  advanceCheckpoint,
  ensureCheckpointTable,
  recordCheckpointFailure,
  resetCheckpoint,
} from '@switchyard/projection';
import { describeEachDatabase, untilSettled } from '@switchyard/testing';
import { checkpointReadiness } from './projection-readiness';

describeEachDatabase('checkpointReadiness (the api beside a projector)', (db) => {
  let executor: SqlExecutor;
  let store: SqlEventStore;
  beforeAll(async () => {
    executor = await db.open();
    store = await SqlEventStore.open(executor);
    await executor.transaction(async (tx) => {
      await ensureCheckpointTable(tx);
      await resetCheckpoint(tx, 'ahead', 1);
      await resetCheckpoint(tx, 'behind', 1);
    });
  });
  afterAll(async () => {
    await store.close();
    await executor.close();
  });

  it('reports each position and how many positions it is behind, and fails once one has stopped', async () => {
    const first = await store.appendToStream('s', [{ type: 'A', data: {} }], { expectedRevision: 'any' });
    const head = (await store.appendToStream('s', [{ type: 'B', data: {} }], { expectedRevision: 'any' }))
      .lastPosition;
    // The head is the settled head: another suite's open transaction may hold it back a moment.
    await untilSettled(store, head);
    await executor.transaction((tx) =>
      advanceCheckpoint(tx, { name: 'ahead', version: 1, from: 'start', to: head }),
    );
    await executor.transaction((tx) =>
      advanceCheckpoint(tx, { name: 'behind', version: 1, from: 'start', to: first.lastPosition }),
    );
    const readiness = checkpointReadiness(executor, ['ahead', 'behind', 'never-ran'], store);

    expect(await readiness.check()).toEqual({
      head,
      processors: [
        { name: 'ahead', position: head, behind: 0, failure: null },
        { name: 'behind', position: first.lastPosition, behind: 1, failure: null },
        { name: 'never-ran', position: null, behind: null, failure: null },
      ],
    });

    await recordCheckpointFailure(executor, 'behind', 'behind stopped on B');
    const refusal = await readiness.check().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(NotReadyError);
    expect((refusal as NotReadyError).message).toBe('behind has stopped');
    expect((refusal as NotReadyError).details).toMatchObject({
      processors: [
        { name: 'ahead' },
        { name: 'behind', failure: 'behind stopped on B' },
        { name: 'never-ran' },
      ],
    });
  });
});

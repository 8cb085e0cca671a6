import { randomUUID } from 'node:crypto';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { NotReadyError } from '@switchyard/http';
import { advanceCheckpoint, ensureCheckpointTable, resetCheckpoint } from '@switchyard/projection';
import { type SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase, untilSettled } from '@switchyard/testing';
import { caughtUpReadiness, checkpointPositions } from './caught-up-readiness';

describeEachDatabase('caughtUpReadiness', (db) => {
  let executor: SqlExecutor;
  let store: SqlEventStore;
  beforeAll(async () => {
    executor = await db.open();
    store = await SqlEventStore.open(executor);
    await ensureCheckpointTable(executor);
  });
  afterAll(async () => {
    await store.close();
    await executor.close();
  });

  const append = async (type = 'A') => {
    const { lastPosition } = await store.appendToStream(`ready-${randomUUID()}`, [{ type, data: {} }], {
      expectedRevision: 'no_stream',
    });
    await untilSettled(store, lastPosition);
    return lastPosition;
  };

  it('is not ready until the read model reaches the head as of the first probe, and stays ready after', async () => {
    const name = `credentials_${randomUUID().slice(0, 8)}`;
    await executor.transaction((tx) => resetCheckpoint(tx, name, 1));
    const atStart = await append();
    const readiness = caughtUpReadiness({
      readModels: [{ name, eventTypes: ['A'] }],
      headPosition: () => store.headPosition(),
      readAll: (options) => store.readAll(options),
      positions: checkpointPositions(executor),
    });

    const refusal = await readiness.check().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(NotReadyError);
    expect((refusal as NotReadyError).message).toBe(
      `${name} not yet caught up to the head as of start (${atStart})`,
    );
    expect((refusal as NotReadyError).details).toEqual({ head_at_start: atStart, behind: [name] });

    // The target stays where it was: appends since do not move it.
    const later = await append();
    await executor.transaction((tx) =>
      advanceCheckpoint(tx, { name, version: 1, from: 'start', to: atStart }),
    );
    await expect(readiness.check()).resolves.toBeUndefined();

    // Lag after that is the processors' report's business, not a reason to leave rotation.
    await append();
    await executor.transaction((tx) => resetCheckpoint(tx, name, 2));
    await expect(readiness.check()).resolves.toBeUndefined();
    expect(later > atStart).toBe(true);
  });

  it('counts a read model that has never committed as behind', async () => {
    await append();
    const readiness = caughtUpReadiness({
      readModels: [{ name: `never_ran_${randomUUID().slice(0, 8)}` }],
      headPosition: () => store.headPosition(),
      readAll: (options) => store.readAll(options),
      positions: checkpointPositions(executor),
    });
    await expect(readiness.check()).rejects.toBeInstanceOf(NotReadyError);
  });

  it('is ready when only events the read model ignores lie between its checkpoint and the head', async () => {
    // A live processor moves its checkpoint past ignored events only when it next reads: a pause
    // stored just before the first probe left the credentials "behind" (found by the fuzz suite).
    const name = `credentials_${randomUUID().slice(0, 8)}`;
    await executor.transaction((tx) => resetCheckpoint(tx, name, 1));
    const own = await append('A');
    await executor.transaction((tx) => advanceCheckpoint(tx, { name, version: 1, from: 'start', to: own }));
    await append('B');
    const readiness = caughtUpReadiness({
      readModels: [{ name, eventTypes: ['A'] }],
      headPosition: () => store.headPosition(),
      readAll: (options) => store.readAll(options),
      positions: checkpointPositions(executor),
    });
    await expect(readiness.check()).resolves.toBeUndefined();
  });
});

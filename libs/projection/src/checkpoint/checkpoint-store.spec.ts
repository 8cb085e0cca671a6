import { encodeSqlPosition } from '@switchyard/event-store';
import { describeEachDatabase } from '@switchyard/testing';
import { openProjectionTestEnv, uniqueName, type ProjectionTestEnv } from '../test/projection-test-env';
import { CheckpointConflictError } from './checkpoint-conflict-error';
import { advanceCheckpoint, readCheckpoint, readCheckpoints, resetCheckpoint } from './checkpoint-store';
import { ensureCheckpointTable } from './checkpoint-table';

const P1 = encodeSqlPosition(10n, 1n);
const P2 = encodeSqlPosition(10n, 2n);

describeEachDatabase('checkpoint store', (db) => {
  let env: ProjectionTestEnv;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
    await env.executor.transaction((tx) => ensureCheckpointTable(tx));
  });
  afterAll(() => env.close());

  const reset = (name: string, version = 1) =>
    env.executor.transaction((tx) => resetCheckpoint(tx, name, version));
  const advance = (name: string, from: string, to: string, version = 1) =>
    env.executor.transaction((tx) => advanceCheckpoint(tx, { name, version, from, to }));

  it('knows no checkpoint for a projection that never ran, and "start" once reset', async () => {
    const name = uniqueName('cp');
    expect(await readCheckpoint(env.executor, name)).toBeNull();
    await reset(name, 3);
    expect(await readCheckpoint(env.executor, name)).toEqual({
      name,
      version: 3,
      position: 'start',
      failure: null,
      heartbeatAt: null,
      lastError: null,
    });
  });

  it('moves only from the position it expects (compare-and-set)', async () => {
    const name = uniqueName('cp');
    await reset(name);
    await advance(name, 'start', P1);

    const conflict = await advance(name, 'start', P2).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(CheckpointConflictError);
    expect(conflict).toMatchObject({
      projection: name,
      expected: { version: 1, position: 'start' },
      actual: { version: 1, position: P1 },
    });
    expect((await readCheckpoint(env.executor, name))?.position).toBe(P1);

    await advance(name, P1, P2);
    expect((await readCheckpoint(env.executor, name))?.position).toBe(P2);
  });

  it('treats another version as a conflict, and a missing checkpoint too', async () => {
    const name = uniqueName('cp');
    await reset(name, 2);
    await expect(advance(name, 'start', P1, 1)).rejects.toBeInstanceOf(CheckpointConflictError);
    const missing = await advance(uniqueName('cp'), 'start', P1).catch((error: unknown) => error);
    expect(missing).toMatchObject({ actual: null });
  });

  it('rolls back the rows written in the same transaction when the checkpoint moved', async () => {
    const name = uniqueName('cp');
    await env.executor.exec(`CREATE TABLE ${name}_rows (id int PRIMARY KEY)`);
    await reset(name);
    await advance(name, 'start', P1);

    const attempt = env.executor.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${name}_rows (id) VALUES (1)`);
      await advanceCheckpoint(tx, { name, version: 1, from: 'start', to: P2 });
    });

    await expect(attempt).rejects.toBeInstanceOf(CheckpointConflictError);
    const { rows } = await env.executor.query(`SELECT id FROM ${name}_rows`);
    expect(rows).toEqual([]);
  });

  it('resetting puts a projection back at the start under its new version', async () => {
    const name = uniqueName('cp');
    await reset(name, 1);
    await advance(name, 'start', P1);
    await reset(name, 2);
    expect(await readCheckpoint(env.executor, name)).toEqual({
      name,
      version: 2,
      position: 'start',
      failure: null,
      heartbeatAt: null,
      lastError: null,
    });
  });

  it('reads several checkpoints at once, leaving out the unknown ones', async () => {
    const [a, b, unknown] = [uniqueName('cp'), uniqueName('cp'), uniqueName('cp')];
    await reset(a);
    await reset(b);
    await advance(b, 'start', P1);
    const found = await readCheckpoints(env.executor, [a, b, unknown]);
    expect([...found.keys()].sort()).toEqual([a, b].sort());
    expect(found.get(b)?.position).toBe(P1);
  });
});

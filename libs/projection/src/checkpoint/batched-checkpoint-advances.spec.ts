import { encodeSqlPosition } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { openProjectionTestEnv, uniqueName, type ProjectionTestEnv } from '../test/projection-test-env';
import { BatchedCheckpointAdvances } from './batched-checkpoint-advances';
import { CheckpointConflictError } from './checkpoint-conflict-error';
import { readCheckpoint, resetCheckpoint } from './checkpoint-store';
import { ensureCheckpointTable } from './checkpoint-table';

const P1 = encodeSqlPosition(10n, 1n);
const P2 = encodeSqlPosition(10n, 2n);

describeEachDatabase('batched checkpoint advances', (db) => {
  let env: ProjectionTestEnv;
  let statements: string[];
  let advances: BatchedCheckpointAdvances;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
    await env.executor.transaction((tx) => ensureCheckpointTable(tx));
  });
  beforeEach(() => {
    statements = [];
    const counting: SqlQueryable = {
      query: (sql, params, options) => {
        statements.push(sql);
        return env.executor.query(sql, params, options);
      },
      exec: (sql) => env.executor.exec(sql),
      copyFrom: (table, columns, text) => env.executor.copyFrom(table, columns, text),
    };
    advances = new BatchedCheckpointAdvances(counting);
  });
  afterAll(() => env.close());

  const fresh = async () => {
    const name = uniqueName('cp');
    await env.executor.transaction((tx) => resetCheckpoint(tx, name, 1));
    return name;
  };
  const positionOf = async (name: string) => (await readCheckpoint(env.executor, name))?.position;

  it('moves the checkpoints asked for in one turn with one statement', async () => {
    const names = [await fresh(), await fresh(), await fresh()];
    await Promise.all(names.map((name) => advances.advance({ name, version: 1, from: 'start', to: P1 })));
    expect(statements).toHaveLength(1);
    for (const name of names) expect(await positionOf(name)).toBe(P1);
  });

  it('still compares and sets each one: a stale move fails alone, the others go through', async () => {
    const moved = await fresh();
    const stale = await fresh();
    await env.executor.query(`UPDATE sy_projection_checkpoints SET position = $2 WHERE name = $1`, [
      stale,
      P2,
    ]);
    const results = await Promise.allSettled([
      advances.advance({ name: moved, version: 1, from: 'start', to: P1 }),
      advances.advance({ name: stale, version: 1, from: 'start', to: P1 }),
    ]);
    expect(results[0].status).toBe('fulfilled');
    expect(results[1].status === 'rejected' && results[1].reason).toBeInstanceOf(CheckpointConflictError);
    expect(await positionOf(moved)).toBe(P1);
    expect(await positionOf(stale)).toBe(P2);
  });

  it('refuses a move under another version', async () => {
    const name = await fresh();
    await expect(advances.advance({ name, version: 2, from: 'start', to: P1 })).rejects.toBeInstanceOf(
      CheckpointConflictError,
    );
    expect(await positionOf(name)).toBe('start');
  });
});

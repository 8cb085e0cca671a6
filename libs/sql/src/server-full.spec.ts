import { randomBytes } from 'node:crypto';
import { testDatabases } from '@switchyard/testing';
import { PgExecutor } from './pg-executor';
import { whileServerFull } from './server-full';
import { sqlErrorCode } from './sql-executor';

const url = process.env.DATABASE_URL;
const describeOnPostgres = testDatabases().some((db) => db.name === 'postgres') ? describe : describe.skip;
const full = () => Object.assign(new Error('sorry, too many clients already'), { code: '53300' });

describe('whileServerFull', () => {
  it('tries again while the server refuses sessions for being full, then answers', async () => {
    let attempts = 0;
    const answer = await whileServerFull(async () => {
      attempts += 1;
      if (attempts < 3) throw full();
      return 'connected';
    });
    expect({ answer, attempts }).toEqual({ answer: 'connected', attempts: 3 });
  });

  it('gives the refusal to the caller once the wait is over', async () => {
    const refused = await whileServerFull(() => Promise.reject(full()), 200).catch((error: unknown) => error);
    expect(sqlErrorCode(refused)).toBe('53300');
  });

  it('passes any other error on at once', async () => {
    let attempts = 0;
    const failed = await whileServerFull(async () => {
      attempts += 1;
      throw Object.assign(new Error('syntax error'), { code: '42601' });
    }).catch((error: unknown) => error);
    expect({ code: sqlErrorCode(failed), attempts }).toEqual({ code: '42601', attempts: 1 });
  });
});

/**
 * A role allowed one session stands in for a server at max_connections (the same refusal, 53300):
 * a statement that needs a second session waits until the first is given back instead of failing.
 */
describeOnPostgres('PgExecutor on a full server', () => {
  const role = `sy_full_${randomBytes(4).toString('hex')}`;
  let admin: PgExecutor;
  let executor: PgExecutor;
  beforeAll(async () => {
    admin = await PgExecutor.open(url!, { max: 1 });
    await admin.exec(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 1`);
    const asRole = new URL(url!);
    asRole.username = role;
    executor = await PgExecutor.open(asRole.toString(), { max: 2 });
  });
  afterAll(async () => {
    await executor?.close();
    await admin?.exec(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
    await admin?.close();
  });

  it('waits for a session while the only one it may open is in a transaction', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = executor.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await held;
    });
    // The pool's one session is in the transaction: this statement needs a second, which the
    // server refuses until the transaction gives the first back.
    const statement = executor.query<{ answer: number }>('SELECT 42 AS answer');
    setTimeout(release, 300);
    await transaction;
    expect((await statement).rows).toEqual([{ answer: 42 }]);
  });

  it('opens once a slot frees up, when it starts while the server is full', async () => {
    const other = `${role}_b`;
    await admin.exec(`CREATE ROLE ${other} LOGIN CONNECTION LIMIT 1`);
    const asOther = new URL(url!);
    asOther.username = other;
    try {
      // One process holds the only session; a second starts meanwhile, and the first stops.
      const first = await PgExecutor.open(asOther.toString(), { max: 1 });
      const opening = PgExecutor.open(asOther.toString(), { max: 1 });
      setTimeout(() => void first.close(), 300);
      const second = await opening;
      try {
        expect((await second.query<{ answer: number }>('SELECT 7 AS answer')).rows).toEqual([{ answer: 7 }]);
      } finally {
        await second.close();
      }
    } finally {
      await admin.exec(`DROP ROLE IF EXISTS ${other}`);
    }
  });
});

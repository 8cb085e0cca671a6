import { testDatabases } from '@switchyard/testing';
import { PgExecutor } from './pg-executor';
import { LONG_WORK, sqlErrorCode } from './sql-executor';

const QUERY_CANCELED = '57014';
const url = process.env.DATABASE_URL;
const describeOnPostgres = testDatabases().some((db) => db.name === 'postgres') ? describe : describe.skip;

/**
 * Every session is bounded (no statement, no idle transaction holds the database for long), and
 * long work lifts the bounds for its own transactions only. A session's limits are tight here so
 * the test sees them act; the defaults are 30 s and 10 s (DEFAULT_SESSION_LIMITS).
 */
describeOnPostgres('PgExecutor time limits', () => {
  let executor: PgExecutor;
  beforeAll(async () => {
    executor = await PgExecutor.open(url!, {
      max: 2,
      limits: { statementTimeoutMs: 300, idleInTransactionTimeoutMs: 300 },
    });
  });
  afterAll(() => executor.close());

  const settings = (q: Pick<PgExecutor, 'query'>) =>
    q
      .query<{ statement: string; idle: string }>(
        `SELECT current_setting('statement_timeout') AS statement,
                current_setting('idle_in_transaction_session_timeout') AS idle`,
      )
      .then(({ rows }) => rows[0]);

  it('stops a statement of the session that runs past its limit', async () => {
    const error = await executor.query('SELECT pg_sleep(2)').catch((caught: unknown) => caught);
    expect(sqlErrorCode(error)).toBe(QUERY_CANCELED);
    expect(await settings(executor)).toEqual({ statement: '300ms', idle: '300ms' });
  });

  it('ends a transaction left waiting for its next statement, and the pool goes on without it', async () => {
    const left = executor.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await tx.query('SELECT 1');
    });
    await expect(left).rejects.toThrow();
    const answers = await Promise.all([executor.query('SELECT 1 AS one'), executor.query('SELECT 1 AS one')]);
    expect(answers.map(({ rows }) => rows[0])).toEqual([{ one: 1 }, { one: 1 }]);
  });

  it('lets long work run a long statement in its transaction, and only there', async () => {
    await executor.transaction(async (tx) => {
      expect(await settings(tx)).toEqual({ statement: '0', idle: '1min' });
      await tx.query('SELECT pg_sleep(0.6)');
    }, LONG_WORK);
    expect(await settings(executor)).toEqual({ statement: '300ms', idle: '300ms' });
    await expect(executor.transaction((tx) => tx.query('SELECT pg_sleep(2)'))).rejects.toMatchObject({
      code: QUERY_CANCELED,
    });
  });

  it('refuses a limit that is not a whole number of milliseconds', async () => {
    await expect(executor.transaction(async () => 1, { statementTimeoutMs: 1.5 })).rejects.toThrow(
      'statement_timeout must be a whole number of ms, got 1.5',
    );
  });
});

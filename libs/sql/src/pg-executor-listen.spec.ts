import { randomBytes } from 'node:crypto';
import { testDatabases } from '@switchyard/testing';
import { PgExecutor } from './pg-executor';

const url = process.env.DATABASE_URL;
const describeOnPostgres = testDatabases().some((db) => db.name === 'postgres') ? describe : describe.skip;

/**
 * The listening session ends when the server restarts or an operator terminates its backend.
 * Before, its 'error' event went unhandled and ended the process; now listening resumes on a new
 * session, and every listener is woken once for what it may have missed in between.
 */
describeOnPostgres('PgExecutor LISTEN across a lost session', () => {
  const applicationName = `sy_listen_${randomBytes(4).toString('hex')}`;
  let executor: PgExecutor;
  let admin: PgExecutor;
  beforeAll(async () => {
    executor = await PgExecutor.open(url!, { max: 2, application_name: applicationName });
    admin = await PgExecutor.open(url!, { max: 1 });
  });
  afterAll(async () => {
    await executor.close();
    await admin.close();
  });

  const listeningBackends = async (): Promise<number[]> =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'`,
        [applicationName],
      )
    ).rows.map((row) => row.pid);

  const until = async (condition: () => boolean | Promise<boolean>) => {
    for (let tries = 0; !(await condition()); tries++) {
      if (tries > 400) throw new Error('condition not met in 20 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('listens again on a new session once the server ended the old one', async () => {
    const heard: string[] = [];
    await executor.listen('sy_listen_test', (payload) => heard.push(payload));
    const [first] = await listeningBackends();
    expect(first).toBeDefined();

    await admin.query('SELECT pg_terminate_backend($1)', [first]);
    await until(async () => (await listeningBackends()).some((pid) => pid !== first));
    // The wake-up for what was missed while nobody listened.
    await until(() => heard.includes(''));

    await admin.query(`SELECT pg_notify('sy_listen_test', 'after')`);
    await until(() => heard.includes('after'));
  });
});

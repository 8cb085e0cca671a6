import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client, Pool, type PoolClient, type PoolConfig } from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { copyStatement } from './copy-text';
import type { QueryOptions, SqlExecutor, SqlLimits, SqlQueryable, SqlRows } from './sql-executor';
import { BinaryArray, encodeBinaryArray } from './binary-array';
import { whileServerFull } from './server-full';

const statementNames = new Map<string, string>();

/** One name per text, so a connection never meets a name prepared for another text. */
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `sy_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** COPY … FROM STDIN on one connection; finished once the server has stored every row. */
async function copyInto(client: PoolClient, table: string, columns: readonly string[], text: string) {
  await pipeline(Readable.from([text]), client.query(copyFromStdin(copyStatement(table, columns, 'STDIN'))));
}

/** A checked-out session's 'error' event: the statement in flight fails with it instead. */
const ignoreSessionError = (): void => undefined;

const wrap = (target: Pool | PoolClient): SqlQueryable => ({
  async query<T>(sql: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<SqlRows<T>> {
    const values = params.map((param) => (param instanceof BinaryArray ? encodeBinaryArray(param) : param));
    const run = () =>
      options?.prepared
        ? target.query({ name: statementName(sql), text: sql, values })
        : target.query(sql, values);
    // On the pool a statement first takes a session, which a full server may refuse for a while.
    const result = target instanceof Pool ? await whileServerFull(run) : await run();
    return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
  },
  async exec(sql: string): Promise<void> {
    await (target instanceof Pool ? whileServerFull(() => target.query(sql)) : target.query(sql));
  },
  async copyFrom(table: string, columns: readonly string[], text: string): Promise<void> {
    if (!(target instanceof Pool)) return copyInto(target, table, columns, text);
    const client = await whileServerFull(() => target.connect());
    client.on('error', ignoreSessionError);
    try {
      await copyInto(client, table, columns, text);
      client.off('error', ignoreSessionError);
      client.release();
    } catch (error) {
      client.off('error', ignoreSessionError);
      // A copy cut short may leave the connection mid-protocol: close it rather than reuse it.
      client.release(error instanceof Error ? error : true);
      throw error;
    }
  },
});

/**
 * What a session allows unless told otherwise: no statement holds the database for more than 30 s,
 * and no transaction waits more than 10 s for its client's next statement, so a request that is
 * stuck (or an event loop that is) cannot keep its locks for minutes. Long work says so (LONG_WORK).
 */
export const DEFAULT_SESSION_LIMITS: Required<SqlLimits> = {
  statementTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 10_000,
};

/** BEGIN, and the transaction's own limits, in one round trip (a simple-protocol multi-statement). */
function beginWith(limits: SqlLimits | undefined): string {
  const settings: string[] = ['BEGIN'];
  const set = (name: string, ms: number | undefined) => {
    if (ms === undefined) return;
    if (!Number.isSafeInteger(ms) || ms < 0)
      throw new Error(`${name} must be a whole number of ms, got ${ms}`);
    settings.push(`SET LOCAL ${name} = ${ms}`);
  };
  set('statement_timeout', limits?.statementTimeoutMs);
  set('idle_in_transaction_session_timeout', limits?.idleInTransactionTimeoutMs);
  return settings.join('; ');
}

/** Server PostgreSQL through a node-postgres pool. */
export class PgExecutor implements SqlExecutor {
  readonly dialect = 'postgres' as const;
  private readonly direct: SqlQueryable;
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private listenClient: Promise<PoolClient> | null = null;
  /** Set while a new listening session is due (the last one broke). */
  private listenRetry: NodeJS.Timeout | null = null;
  private listenFailures = 0;
  private closed = false;
  private readonly lockClients = new Set<Client>();

  private constructor(private readonly pool: Pool) {
    this.direct = wrap(pool);
  }

  /**
   * `limits` are every session's (DEFAULT_SESSION_LIMITS unless given): they bound each
   * autocommitted statement, and each transaction that sets none of its own (a request's).
   */
  static async open(
    connectionString: string,
    options: PoolConfig & { limits?: SqlLimits } = {},
  ): Promise<PgExecutor> {
    const { limits = DEFAULT_SESSION_LIMITS, ...poolOptions } = options;
    const pool = new Pool({
      connectionString,
      max: 10,
      statement_timeout: limits.statementTimeoutMs ?? DEFAULT_SESSION_LIMITS.statementTimeoutMs,
      idle_in_transaction_session_timeout:
        limits.idleInTransactionTimeoutMs ?? DEFAULT_SESSION_LIMITS.idleInTransactionTimeoutMs,
      ...poolOptions,
    });
    pool.on('error', () => {
      // Idle client errors (server restart) are surfaced on the next query; keep the process alive.
    });
    // A process that starts while the server is full (a deploy's overlap) waits for a slot.
    await whileServerFull(() => pool.query('SELECT 1'));
    return new PgExecutor(pool);
  }

  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<SqlRows<T>> {
    return this.direct.query<T>(sql, params, options);
  }

  exec(sql: string): Promise<void> {
    return this.direct.exec(sql);
  }

  copyFrom(table: string, columns: readonly string[], text: string): Promise<void> {
    return this.direct.copyFrom(table, columns, text);
  }

  async transaction<T>(fn: (tx: SqlQueryable) => Promise<T>, limits?: SqlLimits): Promise<T> {
    const client = await whileServerFull(() => this.pool.connect());
    // The server may end the session while the transaction holds it (its idle limit): the next
    // statement fails with that, and the event must not go unhandled (it would end the process).
    client.on('error', ignoreSessionError);
    let result: T;
    try {
      await client.query(beginWith(limits));
      result = await fn(wrap(client));
      await client.query('COMMIT');
    } catch (error) {
      // A session the server ended (idle_in_transaction_session_timeout) cannot roll back: drop it.
      const broken = await client.query('ROLLBACK').then(
        () => false,
        () => true,
      );
      client.off('error', ignoreSessionError);
      client.release(broken);
      throw error;
    }
    client.off('error', ignoreSessionError);
    client.release();
    return result;
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Bad channel name ${channel}`);
    let handlers = this.listeners.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.listeners.set(channel, handlers);
      const client = await this.listeningSession();
      await client.query(`LISTEN ${channel}`);
    }
    handlers.add(onNotify);
    return async () => {
      handlers!.delete(onNotify);
    };
  }

  /** The one session that LISTENs, opened on first use and again after the server ended the last one. */
  private listeningSession(): Promise<PoolClient> {
    this.listenClient ??= whileServerFull(() => this.pool.connect()).then(
      (client) => {
        client.on('notification', (message) => {
          for (const handler of this.listeners.get(message.channel) ?? []) handler(message.payload ?? '');
        });
        // A server restart or a terminated backend ends the session: without this handler the
        // 'error' event would end the process. Listening resumes on a new session.
        client.on('error', () => this.dropListeningSession(client));
        return client;
      },
      (error: unknown) => {
        this.listenClient = null;
        throw error;
      },
    );
    return this.listenClient;
  }

  /**
   * Forgets a broken listening session and opens a new one that LISTENs again on every channel,
   * retrying with a growing delay while the server is away. Notifications sent meanwhile are lost:
   * they are only wake-ups, and every listener here also polls (the event store's idle beat, the
   * freshness re-reads), so they only arrive later.
   */
  private dropListeningSession(broken: PoolClient | null): void {
    if (broken) {
      // Once only: a broken session may report more than one error.
      broken.removeAllListeners('notification');
      broken.removeAllListeners('error');
      broken.on('error', ignoreSessionError);
      broken.release(true);
    }
    this.listenClient = null;
    if (this.closed || this.listenRetry) return;
    const delay = Math.min(30_000, 250 * 2 ** this.listenFailures);
    this.listenRetry = setTimeout(() => void this.listenAgain(), delay);
    this.listenRetry.unref();
  }

  private async listenAgain(): Promise<void> {
    this.listenRetry = null;
    if (this.closed) return;
    let client: PoolClient | null = null;
    try {
      client = await this.listeningSession();
      for (const channel of this.listeners.keys()) await client.query(`LISTEN ${channel}`);
      this.listenFailures = 0;
      // Whatever was announced while no session listened: wake every listener once.
      for (const handlers of this.listeners.values()) for (const handler of handlers) handler('');
    } catch {
      this.listenFailures += 1;
      this.dropListeningSession(client);
    }
  }

  /**
   * A session-level advisory lock on a connection of its own, outside the pool: the lock lives as
   * long as that session, and a long-held lock must not take a pool slot from queries.
   */
  async acquireSessionLock(key: string): Promise<(() => Promise<void>) | null> {
    const client = await whileServerFull(async () => {
      const session = new Client(this.pool.options);
      // A dropped lock session surfaces as the next checkpoint compare-and-set conflict; never crash on it.
      session.on('error', () => undefined);
      await session.connect().catch(async (error: unknown) => {
        await session.end().catch(() => undefined);
        throw error;
      });
      return session;
    });
    try {
      const { rows } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
        [key],
      );
      if (!rows[0]?.locked) {
        await client.end();
        return null;
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.lockClients.add(client);
    return async () => {
      if (!this.lockClients.delete(client)) return;
      // Ending the session releases the lock too; the explicit unlock just makes it immediate.
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
      await client.end().catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.listenRetry) clearTimeout(this.listenRetry);
    for (const client of this.lockClients) await client.end().catch(() => undefined);
    this.lockClients.clear();
    const listening = await this.listenClient?.catch(() => null);
    this.listenClient = null;
    listening?.release();
    await this.pool.end();
  }
}

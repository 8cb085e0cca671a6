import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { copyStatement } from './copy-text';
import { initializedCluster } from './pglite-initialized-cluster';
import type { SqlExecutor, SqlQueryable, SqlRows } from './sql-executor';
import { BinaryArray } from './binary-array';

const wrap = (target: PGlite | Transaction): SqlQueryable => ({
  async query<T>(sql: string, params: readonly unknown[] = []): Promise<SqlRows<T>> {
    const values = params.map((param) =>
      param instanceof BinaryArray ? param.values.map((value) => value ?? null) : param,
    );
    const result = await target.query<T>(sql, values);
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
  },
  async exec(sql: string): Promise<void> {
    await target.exec(sql);
  },
  async copyFrom(table: string, columns: readonly string[], text: string): Promise<void> {
    // PGlite has no STDIN: COPY reads the blob handed along with the statement.
    await target.query(copyStatement(table, columns, `'/dev/blob'`), [], { blob: new Blob([text]) });
  },
});

/** The embedded store: PostgreSQL compiled to WASM, persisted in a data directory (or memory). */
export class PgliteExecutor implements SqlExecutor {
  readonly dialect = 'pglite' as const;
  private readonly direct: SqlQueryable;
  /** PGlite serves one process, so an in-process set is as exclusive as an advisory lock would be. */
  private readonly sessionLocks = new Set<string>();

  private constructor(private readonly db: PGlite) {
    this.direct = wrap(db);
  }

  /**
   * dataDir undefined means in-memory, for tests. A new database starts from an initialised
   * cluster's dump rather than running initdb (pglite-initialized-cluster.ts): 4 s and 400 MB less.
   */
  static async open(dataDir?: string): Promise<PgliteExecutor> {
    const holdsCluster = dataDir !== undefined && existsSync(join(dataDir, 'PG_VERSION'));
    const loadDataDir = holdsCluster ? undefined : await initializedCluster();
    const db = dataDir ? new PGlite(dataDir, { loadDataDir }) : new PGlite({ loadDataDir });
    await db.waitReady;
    return new PgliteExecutor(db);
  }

  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<SqlRows<T>> {
    return this.direct.query<T>(sql, params);
  }

  exec(sql: string): Promise<void> {
    return this.direct.exec(sql);
  }

  copyFrom(table: string, columns: readonly string[], text: string): Promise<void> {
    return this.direct.copyFrom(table, columns, text);
  }

  /** Limits are PostgreSQL's: one connection, nothing beside it to hold up (SqlLimits). */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(wrap(tx)));
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    return this.db.listen(channel, onNotify);
  }

  async acquireSessionLock(key: string): Promise<(() => Promise<void>) | null> {
    if (this.sessionLocks.has(key)) return null;
    this.sessionLocks.add(key);
    return async () => {
      this.sessionLocks.delete(key);
    };
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}

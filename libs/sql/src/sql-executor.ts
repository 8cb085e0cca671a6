/**
 * The thin layer under both SQL adapters. PGlite has a single connection and deadlocks when the
 * instance is used inside its own transaction callback, so every function that runs inside a
 * transaction takes the transaction handle explicitly (architecture-anchors §1.11).
 */
export interface SqlRows<T> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * Run it as a named prepared statement on PostgreSQL, so each connection parses and plans it once
   * and may settle on a generic plan. For hot statements whose text is fixed (a few variants at
   * most): every distinct text stays prepared on every pooled connection. PGlite ignores it.
   */
  prepared?: boolean;
}

export interface SqlQueryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<SqlRows<T>>;
  /** Several statements, no parameters (schema setup). */
  exec(sql: string): Promise<void>;
  /**
   * Loads rows into a table with COPY, far cheaper per row than any INSERT: `text` holds the rows
   * in PostgreSQL's text format (copyLine builds one line). For bulk loads of many rows.
   */
  copyFrom(table: string, columns: readonly string[], text: string): Promise<void>;
}

/**
 * Time limits on PostgreSQL work, in milliseconds; 0 means none. A connection starts with the
 * session's (PgExecutor.open's `limits`, which bound every autocommitted statement: appends, feed
 * reads, a request's queries), and a transaction may set its own for its duration (SET LOCAL).
 * PGlite has one connection and nothing beside it to protect, so it takes none.
 */
export interface SqlLimits {
  /** Longest a single statement may run (statement_timeout). */
  statementTimeoutMs?: number;
  /** Longest a transaction may sit waiting for its client's next statement (idle_in_transaction_session_timeout). */
  idleInTransactionTimeoutMs?: number;
}

/**
 * For work that is long by nature and not a request's (projection batches, rebuilds, schema
 * setup): a statement may run as long as it needs (an index built on a big table), and the
 * transaction may wait a minute between statements on a busy process.
 */
export const LONG_WORK: SqlLimits = { statementTimeoutMs: 0, idleInTransactionTimeoutMs: 60_000 };

export interface SqlExecutor extends SqlQueryable {
  readonly dialect: 'pglite' | 'postgres';
  /** With `limits`, the transaction's own time limits instead of the session's (PostgreSQL only). */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>, limits?: SqlLimits): Promise<T>;
  /** Delivers NOTIFY payloads on the channel; returns an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Takes an exclusive lock named by key, held until the returned release function is called (one
   * projection runner per projection across processes). Never waits: null when someone holds it.
   */
  acquireSessionLock(key: string): Promise<(() => Promise<void>) | null>;
  close(): Promise<void>;
}

/** Postgres error codes we act upon. */
export const UNIQUE_VIOLATION = '23505';

export const sqlErrorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;

export const sqlConstraint = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'constraint' in error
    ? String((error as { constraint: unknown }).constraint)
    : undefined;

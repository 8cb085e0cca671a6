import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { type Position } from '@switchyard/event-store';
import { type SqlExecutor } from '@switchyard/sql';
import { FixedClock } from '@switchyard/kernel';
import type { ReadModelFreshness } from '@switchyard/projection';
import type { TestDatabase } from '@switchyard/testing';
import type { AuthServiceDeps } from '../src/application/auth-service-deps';
import { AuthCredentialsProjection } from '../src/projection/auth-credentials.projection';

/**
 * Stands in for the projection runner (a colleague's): waitFor applies every event written so far
 * to auth_credentials, in order, then resolves true. Enough to test services against real SQL.
 */
export class InlineProjection implements ReadModelFreshness {
  private after: Position | 'start' = 'start';
  /** Set to make waitFor report a lagging read model without applying anything. */
  stalled = false;

  constructor(
    private readonly store: InMemoryEventStore,
    private readonly sql: SqlExecutor,
    private readonly projection = new AuthCredentialsProjection(),
  ) {}

  async assertRunning(): Promise<void> {
    // Applied inline on every wait: it never stops.
  }

  async waitFor(): Promise<boolean> {
    if (this.stalled) return false;
    for (;;) {
      const page = await this.store.readAll({
        after: this.after,
        limit: 100,
        filter: { eventTypes: this.projection.eventTypes },
      });
      await this.sql.transaction((tx) => this.projection.apply(tx, page.events));
      this.after = page.lastPosition;
      if (page.endOfFeed) return true;
    }
  }
}

export interface AuthTestKit {
  deps: AuthServiceDeps;
  store: InMemoryEventStore;
  sql: SqlExecutor;
  freshness: InlineProjection;
  clock: FixedClock;
}

/** Opens a database with the auth_credentials table; open once per suite (PGlite takes seconds). */
export async function openCredentialDatabase(database: TestDatabase): Promise<SqlExecutor> {
  const sql = await database.open();
  await new AuthCredentialsProjection().setup(sql);
  return sql;
}

/** A fresh world over that database: empty table, new event store, clock at 2026-05-01T10:00Z. */
export async function newAuthTestKit(sql: SqlExecutor): Promise<AuthTestKit> {
  await sql.transaction((tx) => new AuthCredentialsProjection().reset(tx));
  const store = new InMemoryEventStore();
  const freshness = new InlineProjection(store, sql);
  const clock = new FixedClock(new Date('2026-05-01T10:00:00Z'));
  return {
    deps: { store, commands: new CommandService(store), sql, freshness, clock },
    store,
    sql,
    freshness,
    clock,
  };
}

/** Everything stored anywhere (events and table rows) as one string, to prove secrets are absent. */
export async function everythingStored(kit: AuthTestKit): Promise<string> {
  const { events } = await kit.store.readAll({ after: 'start', limit: 10_000 });
  const { rows } = await kit.sql.query('SELECT * FROM auth_credentials');
  return JSON.stringify({ events, rows }, (_key, value) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

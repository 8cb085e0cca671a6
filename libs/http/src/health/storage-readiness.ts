import type { EventStore } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import type { ReadinessContributor } from './readiness';

export const readModelDatabaseReadiness = (sql: SqlQueryable): ReadinessContributor => ({
  name: 'read_model_database',
  async check() {
    await sql.query('SELECT 1');
  },
});

export const eventStoreReadiness = (store: EventStore): ReadinessContributor => ({
  name: 'event_store',
  async check() {
    await store.headPosition();
  },
});

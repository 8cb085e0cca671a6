/** The PostgreSQL and PGlite adapter of the event store (one SQL for both). */
export * from './sql-event-store';
export * from './event-store-schema';
export * from './sql-snapshot-store';

/** The in-memory adapter of the event store, for tests and tools. */
export * from './in-memory-event-store';
export * from './in-memory-snapshot-store';

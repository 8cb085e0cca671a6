/** The EventStoreDB adapter of the event store. */
export * from './esdb-event-store';
export * from './esdb-position';

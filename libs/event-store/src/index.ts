/**
 * The event-store port. Adapters have entry points of their own (`@switchyard/event-store/sql`,
 * `/esdb`, `/in-memory`), the command service sits above it in `@switchyard/event-store/application`,
 * and the SQL executor is `@switchyard/sql`.
 */
export * from './types';
export * from './errors';
export * from './position';
export * from './upcasting';
export * from './wakeup';
export * from './filter';
export * from './stream-category';
export * from './snapshots';
export * from './polling-subscription';
export * from './expected-revision';
export * from './abortable-sleep';

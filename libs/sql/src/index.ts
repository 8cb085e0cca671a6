/**
 * The read-model SQL executor: one small interface over PGlite and PostgreSQL, which the event
 * store's SQL adapter, the projections and the queries all run their statements through.
 */
export * from './sql-executor';
export * from './copy-text';
export * from './pglite-executor';
export * from './pg-executor';
export * from './binary-array';
export * from './server-full';

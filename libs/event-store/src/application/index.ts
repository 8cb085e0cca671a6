/** The application layer over the port: load a stream, decide, append with retries, snapshots. */
export * from './command-service';
export * from './snapshot-policy';
export * from './stream-state';
export * from './idempotent-event-id';

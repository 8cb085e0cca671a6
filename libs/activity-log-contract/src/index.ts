/**
 * What a bounded context needs to put its events in the activity log: the mapping types, the
 * spec's log event types and the actor fields. Producers import this small contract, never the
 * activity-log read model itself.
 */
export * from './log-record';
export * from './actor-metadata';
export * from './log-event-types';

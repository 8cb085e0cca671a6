export * from './domain/events';
export * from './activity/log-mapping';

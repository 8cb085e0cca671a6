export * from './mapping/log-record';

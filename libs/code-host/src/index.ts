export * from './port/pull-request-snapshot';

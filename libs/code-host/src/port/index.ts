export * from './pull-request-snapshot';
export * from './code-host';
export * from './code-host-usage';
export * from './code-host-error';
export * from './repository-names';
export * from './storable-date-time';

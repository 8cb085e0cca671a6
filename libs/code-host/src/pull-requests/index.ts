export * from './domain/pull-request-state.events';
export * from './domain/command-permission';
export * from './application/pull-request-snapshots';
export * from './application/repository-coverage';
export * from './application/pull-request-reader.reactor';
export * from './projection';

export * from './decider-specification';
export * from './databases';
export * from './redis';
export * from './settled';
export * from './eventually';
export * from './fresh-postgres-database';
export * from './bystander-transactions';
export * from './chromium';

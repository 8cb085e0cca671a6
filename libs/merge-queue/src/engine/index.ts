export * from './merge-queue-engine';
export * from './queues.projection';
export * from './repository-configuration';

export * from './queue-workload';
export * from './queue-commands';

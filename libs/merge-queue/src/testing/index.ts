export * from './queue-workload';

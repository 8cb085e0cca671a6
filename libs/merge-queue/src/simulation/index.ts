export * from './closed-forms';
export * from './simulate';
export * from './workload';
export * from './simulate-options';
export * from './simulation-report';
export * from './batch-split-bounds';
export * from './what-if';

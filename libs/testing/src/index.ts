export * from './decider-specification';
export * from './databases';

export * from './actor';
export * from './clock';
export * from './domain-error';
export * from './ids';
export * from './time';
export * from './decider';
export * from './storable';
export * from './wall-clock';

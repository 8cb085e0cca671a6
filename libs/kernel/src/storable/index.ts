export * from './code-point-length';
export * from './storable-instant';
export * from './storable-string';
export * from './storable-checks';
export * from './unstorable-text-in';

export * from './switchyard-projections';
export * from './open-switchyard-storage';
export * from './switchyard.module';
export * from './start-http-app';
export * from './projection-readiness';
export * from './version';

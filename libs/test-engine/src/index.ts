export * from './domain/health/health-rules';
export * from './domain/health/health-verdict';
export * from './domain/identity/test-identity';
export * from './domain/identity/failure-identity';
export * from './domain/upload/test-upload.events';
export * from './projections/test-results.projection';
export * from './projections/test-engine-tables';
export * from './queries/current-health';
export { testEngineProjections } from './projections';

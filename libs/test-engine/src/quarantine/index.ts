// Quarantines of the test engine (issue #10 scope 5). Domain (pure): the decider and its events.
export * from './domain/health-status';
export * from './domain/quarantine-scope';
export * from './domain/test-quarantine';

// Read model: the projection, its queries, and the is_quarantined expression search/tests joins.
export * from './projection/test-quarantine.projection';
export * from './projection/test-quarantine.read-model';
export * from './projection/quarantined-identity.sql';

// Application, activity log and Nest.
export * from './application/test-health.port';
export * from './application/quarantine-json';
export * from './application/test-quarantine.queries';
export * from './application/quarantine-test.handler';
export * from './application/dequarantine-test.handler';
export * from './application/configure-auto-quarantine.handler';
export * from './activity/quarantine-log-mapping';
export * from './quarantine.module';
export * from './reactor/quarantine-health.reactor';

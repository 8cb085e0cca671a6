export * from './ci/ci-model';
export * from './forge/sandbox-forge';
export * from './forge/timers';
export * from './http/sandbox-forge.module';
export * from './webhooks/webhook-signature';
export * from './service-token';
export * from './forge-origin';

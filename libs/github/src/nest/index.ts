export * from './github-webhook.module';
export * from './repository-coverage.module';

export * from './github-rest-contract';
export * from './github-webhook-contract';

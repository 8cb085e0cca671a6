export * from './contract-checked-client';
export * from './github-rest-contract';
export * from './github-webhook-contract';
export * from './webhook-recorder';

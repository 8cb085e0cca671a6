export * from './facts/facts-of-delivery';
export * from './application/github-webhook-intake';
export * from './application/webhook-secret';

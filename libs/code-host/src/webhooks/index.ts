export * from './facts/github-fact.events';
export * from './facts/github-streams';
export * from './facts/facts-of-delivery';
export * from './facts/mergify-command';
export * from './application/github-webhook-intake';
export * from './application/webhook-secret';

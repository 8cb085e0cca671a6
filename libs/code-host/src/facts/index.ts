export * from './github-fact.events';
export * from './github-streams';
export * from './mergify-command';

export * from './check-runs';
export * from './commit-statuses';

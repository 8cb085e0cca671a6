export * from './pull-requests';
export * from './reviews';
export * from './comments';
export * from './labels';

export * from './teams';
export * from './installations';
export * from './users';

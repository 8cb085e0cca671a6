export * from './repositories';
export * from './branches-and-refs';
export * from './commits';
export * from './contents';

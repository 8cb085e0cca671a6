export * from './ci-model';

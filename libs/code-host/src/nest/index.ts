export * from './code-host.module';
export * from './listening-origin';

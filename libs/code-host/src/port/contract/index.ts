export * from './code-host.contract';

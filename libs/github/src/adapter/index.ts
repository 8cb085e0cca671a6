export * from './github-code-host';
export * from './github-clients';
export * from './request-meter';
export * from './pull-request-mapping';
export * from './create-code-host';
export * from './service-origin';

export * from './tokens';
export * from './config/switchyard-config';
export * from './config/config-error';
export * from './config/load-config';
export * from './config/load-config-or-exit';
export * from './storage/data-dir-lock';
export * from './storage/open-storage';
export * from './nest/platform.module';

export * from './status-fold';
export * from './queue-status.projection';
export * from './eta';
export * from './dequeue-impact';
export * from './status-json';
export * from './detail-json';
export * from './queue-status.service';
export * from './status.module';

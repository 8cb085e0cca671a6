export * from './queue-facts';
export * from './queue-statistics';
export * from './queue-statistics.projection';
export * from './statistics-json';

export * from './projection';
export * from './freshness';

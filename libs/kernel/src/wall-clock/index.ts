export * from './in-force';
export * from './iana-time-zone';
export * from './naive-date-time';
export * from './naive-time-in-zone';
export * from './wall-clock';

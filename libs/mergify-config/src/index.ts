export * from './conditions';

// `.mergify.yml` parsing and validation (queue-semantics §1): the typed, defaulted configuration.
export * from './domain/validate-configuration';
export * from './domain/schema/mergify-configuration';
export * from './domain/schema/configuration-notice';
export * from './domain/schema/deprecation';
export { readConditions, builtInConditions, NO_CONDITIONS, ALWAYS } from './domain/schema/conditions-field';
export type {
  ConditionSource,
  ConditionsSource,
  ConfiguredConditions,
} from './domain/schema/conditions-field';
export * from './domain/source/configuration-path';
export * from './domain/source/source-position';
export * from './domain/duration/duration';
export { priorityAlias } from './domain/sections/priority-rules';
export * from './domain/summary/configuration-summary';
export * from './config.module';

import { summarizeConfiguration } from '../domain/summary/configuration-summary';
import { type LocatedDeprecation, validateConfiguration } from '../domain/validate-configuration';
import { ConfigurationRejectedError } from './configuration-rejected.error';

export const VALID_CONFIGURATION_MESSAGE = 'The configuration is valid';

export interface ConfigurationCheck {
  message: string;
  deprecations: LocatedDeprecation[];
}

export interface RepositorySimulation {
  title: string;
  summary: string;
  deprecations: LocatedDeprecation[];
}

/**
 * `configuration-simulator`: is the text valid, and what is deprecated in it. Parts that cannot be
 * applied (such as `extends`) are named in the message rather than passed over.
 */
export function checkConfiguration(text: string, now: Date): ConfigurationCheck {
  const validation = validateConfiguration(text, now);
  if (!validation.valid) throw new ConfigurationRejectedError(validation.errors);
  const caveats = validation.unapplied.map((notice) => `${notice.message}.`);
  const message =
    caveats.length === 0
      ? VALID_CONFIGURATION_MESSAGE
      : [`${VALID_CONFIGURATION_MESSAGE}.`, ...caveats].join(' ');
  return { message, deprecations: validation.deprecations };
}

/** The repository `simulator`: a markdown account of what the configuration will do. */
export function simulateRepository(text: string, now: Date): RepositorySimulation {
  const validation = validateConfiguration(text, now);
  if (!validation.valid) throw new ConfigurationRejectedError(validation.errors);
  return {
    title: VALID_CONFIGURATION_MESSAGE,
    summary: summarizeConfiguration(validation.configuration, validation.unapplied),
    deprecations: validation.deprecations,
  };
}

import type { ConfigurationNotice } from '../domain/schema/configuration-notice';

/** The configuration text is not valid: every problem, with its path and position. */
export class ConfigurationRejectedError extends Error {
  constructor(readonly problems: ConfigurationNotice[]) {
    super(`The configuration is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'})`);
    this.name = 'ConfigurationRejectedError';
  }
}

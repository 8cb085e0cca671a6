import type { ConfigurationNotice } from '../domain/schema/configuration-notice';

/** The configuration text is not valid: every problem, with its path and position. */
export class ConfigurationRejectedError extends Error {
  constructor(
    readonly problems: ConfigurationNotice[],
    /** The file the text came from, when it came from a repository. */
    readonly file: string | null = null,
  ) {
    super(`The configuration is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'})`);
    this.name = 'ConfigurationRejectedError';
  }
}

import type { CodeHost, RepositoryCoordinates } from '@switchyard/code-host';
import { validateConfiguration, type MergifyConfiguration } from '@switchyard/mergify-config';
import { type Clock, systemClock } from '@switchyard/kernel';
import { queuePolicyFromConfiguration } from '../application/policy-from-configuration';
import type { QueuePolicy } from '../domain/policy';

/** A repository's `.mergify.yml` at its default branch, as the engine acts on it. */
export interface RepositoryConfiguration {
  /** null when the file is missing or invalid: no rule queues anything, the default queue applies. */
  configuration: MergifyConfiguration | null;
  policy: QueuePolicy;
  defaultBranch: string;
  /** Why the file is not used (invalid): the file and each error with its line, for logs and checks. */
  problem: string | null;
}

export const coordinatesOf = (repository: string): RepositoryCoordinates => {
  const [owner, name] = repository.split('/') as [string, string];
  return { owner, name };
};

/**
 * Reads each repository's configuration once and keeps it until the default branch moves, or the
 * day changes (a deprecated key becomes an error on its removal date): the engine would otherwise
 * pay a REST call per event (the budget is 25 per merged pull request).
 */
export class RepositoryConfigurations {
  private readonly cache = new Map<string, { day: string; loading: Promise<RepositoryConfiguration> }>();

  constructor(
    private readonly codeHost: CodeHost,
    private readonly clock: Clock = systemClock,
  ) {}

  get(repository: string): Promise<RepositoryConfiguration> {
    const key = repository.toLowerCase();
    const now = this.clock.now();
    const day = now.toISOString().slice(0, 10);
    const kept = this.cache.get(key);
    if (kept && kept.day === day) return kept.loading;
    const loading = this.load(key, now);
    this.cache.set(key, { day, loading });
    loading.catch(() => this.cache.delete(key));
    return loading;
  }

  /** A push to the default branch may change the file: read it again next time. */
  forget(repository: string): void {
    this.cache.delete(repository.toLowerCase());
  }

  private async load(repository: string, now: Date): Promise<RepositoryConfiguration> {
    const coordinates = coordinatesOf(repository);
    const [ref, file] = await Promise.all([
      this.codeHost.getRepository(coordinates),
      this.codeHost.getConfiguration(coordinates),
    ]);
    const fallback = queuePolicyFromConfiguration(emptyConfiguration(now));
    if (!file)
      return { configuration: null, policy: fallback, defaultBranch: ref.defaultBranch, problem: null };
    const validation = validateConfiguration(file.content, now);
    if (!validation.valid)
      return {
        configuration: null,
        policy: fallback,
        defaultBranch: ref.defaultBranch,
        problem: [
          `The current Mergify configuration (${file.path}) is invalid:`,
          ...validation.errors.map(
            (error) =>
              `- ${error.pathText}${error.position ? ` (line ${error.position.line}, column ${error.position.column})` : ''}: ${error.message}`,
          ),
        ].join('\n'),
      };
    return {
      configuration: validation.configuration,
      policy: queuePolicyFromConfiguration(validation.configuration),
      defaultBranch: ref.defaultBranch,
      problem: null,
    };
  }
}

const emptyConfiguration = (now: Date): MergifyConfiguration => {
  const validation = validateConfiguration('{}', now);
  if (!validation.valid) throw new Error('the empty configuration must be valid');
  return validation.configuration;
};

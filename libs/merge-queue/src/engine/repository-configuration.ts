import type { CodeHost, RepositoryCoordinates } from '@switchyard/code-host';
import { validateConfiguration, type MergifyConfiguration } from '@switchyard/config';
import { queuePolicyFromConfiguration } from '../application/policy-from-configuration';
import type { QueuePolicy } from '../domain/policy';

/** A repository's `.mergify.yml` at its default branch, as the engine acts on it. */
export interface RepositoryConfiguration {
  /** null when the file is missing or invalid: no rule queues anything, the default queue applies. */
  configuration: MergifyConfiguration | null;
  policy: QueuePolicy;
  defaultBranch: string;
  /** Why the file is not used (invalid), for logs. */
  problem: string | null;
}

export const coordinatesOf = (repository: string): RepositoryCoordinates => {
  const [owner, name] = repository.split('/') as [string, string];
  return { owner, name };
};

/**
 * Reads each repository's configuration once and keeps it until the default branch moves: the
 * engine would otherwise pay a REST call per event (the budget is 25 per merged pull request).
 */
export class RepositoryConfigurations {
  private readonly cache = new Map<string, Promise<RepositoryConfiguration>>();

  constructor(private readonly codeHost: CodeHost) {}

  get(repository: string): Promise<RepositoryConfiguration> {
    const key = repository.toLowerCase();
    let loading = this.cache.get(key);
    if (!loading) {
      loading = this.load(key);
      this.cache.set(key, loading);
      loading.catch(() => this.cache.delete(key));
    }
    return loading;
  }

  /** A push to the default branch may change the file: read it again next time. */
  forget(repository: string): void {
    this.cache.delete(repository.toLowerCase());
  }

  private async load(repository: string): Promise<RepositoryConfiguration> {
    const coordinates = coordinatesOf(repository);
    const [ref, file] = await Promise.all([
      this.codeHost.getRepository(coordinates),
      this.codeHost.getConfiguration(coordinates),
    ]);
    const fallback = queuePolicyFromConfiguration(emptyConfiguration());
    if (!file)
      return { configuration: null, policy: fallback, defaultBranch: ref.defaultBranch, problem: null };
    const validation = validateConfiguration(file.content);
    if (!validation.valid)
      return {
        configuration: null,
        policy: fallback,
        defaultBranch: ref.defaultBranch,
        problem: `${file.path} is invalid`,
      };
    return {
      configuration: validation.configuration,
      policy: queuePolicyFromConfiguration(validation.configuration),
      defaultBranch: ref.defaultBranch,
      problem: null,
    };
  }
}

const emptyConfiguration = (): MergifyConfiguration => {
  const validation = validateConfiguration('{}');
  if (!validation.valid) throw new Error('the empty configuration must be valid');
  return validation.configuration;
};

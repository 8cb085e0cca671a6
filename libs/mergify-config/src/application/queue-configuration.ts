import type { QueueRuleConfiguration } from '../domain/schema/mergify-configuration';
import { validateConfiguration } from '../domain/validate-configuration';
import { ConfigurationRejectedError } from './configuration-rejected.error';
import type { RepositoryConfigurationSource } from './repository-configuration-source';

/**
 * The queue rules in force for a repository, in processing order, from the configuration file on
 * its default branch. No file means no queue rules; an invalid file is refused with its problems.
 */
export async function queueRulesInForce(
  source: RepositoryConfigurationSource,
  owner: string,
  repository: string,
  now: Date,
): Promise<{ path: string | null; rules: QueueRuleConfiguration[] }> {
  const file = await source.read(owner, repository);
  if (!file) return { path: null, rules: [] };
  const validation = validateConfiguration(file.content, now);
  if (!validation.valid) throw new ConfigurationRejectedError(validation.errors, file.path);
  return { path: file.path, rules: validation.configuration.queueRules };
}

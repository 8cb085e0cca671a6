/** A repository's configuration file as read from its default branch. */
export interface RepositoryConfigurationFile {
  path: string;
  content: string;
}

/**
 * Where `GET queues/configuration` reads the file from: the code host's default branch (queue-
 * semantics §1.1 file order). Null when the repository has no configuration file.
 */
export interface RepositoryConfigurationSource {
  read(owner: string, repository: string): Promise<RepositoryConfigurationFile | null>;
}

export const REPOSITORY_CONFIGURATION_SOURCE = Symbol('REPOSITORY_CONFIGURATION_SOURCE');

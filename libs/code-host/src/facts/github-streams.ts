/** Stream ids of GitHub facts. Categories never contain '-' (see the event store's stream-category). */
export const pullRequestStreamId = (repository: string, number: number): string =>
  `github_pull_request-${repository}#${number}`;

export const repositoryStreamId = (repository: string): string => `github_repository-${repository}`;

export const installationStreamId = (installationId: number): string =>
  `github_installation-${installationId}`;

/** `owner/name` as every Switchyard stream and read model keys a repository. */
export const repositoryKey = (fullName: string): string => fullName.toLowerCase();

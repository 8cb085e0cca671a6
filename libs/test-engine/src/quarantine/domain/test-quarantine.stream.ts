/**
 * One stream per repository: a duplicate check needs every active quarantine of the repository,
 * and auto-quarantine reads the repository's settings beside them.
 */
export const testQuarantineStreamId = (repository: string): string =>
  `test_quarantines-${repository.toLowerCase()}`;

export const QUARANTINE_NOT_FOUND_MESSAGE = 'The quarantine with the given id does not exist';

/** The CLI prints a string detail as is (client-contract §1.9). */
export const alreadyQuarantinedMessage = (testName: string): string =>
  `Test '${testName}' is already quarantined`;

export const QUARANTINE_TEXT_MAX_CODE_POINTS = 10000;

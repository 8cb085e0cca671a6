import { codePointLength, storableStringProblem, unprocessable } from '@switchyard/kernel';
import { isValidAccountId, isValidAccountLogin, type AccountRef } from './account';

export const CREDENTIAL_NAME_MAX_CODE_POINTS = 255;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Checks shared by application keys and service tokens; refusals are 422-kind DomainErrors. */
export function assertValidCredential(input: {
  name: string;
  account: AccountRef;
  secretHash: string;
}): void {
  const length = codePointLength(input.name.trim());
  if (length === 0 || codePointLength(input.name) > CREDENTIAL_NAME_MAX_CODE_POINTS) {
    throw unprocessable(`A credential name must have 1 to ${CREDENTIAL_NAME_MAX_CODE_POINTS} characters`);
  }
  const unstorable = storableStringProblem(input.name);
  if (unstorable) throw unprocessable(`A credential name ${unstorable.message}`);
  if (!isValidAccountLogin(input.account.login)) {
    throw unprocessable(
      `'${input.account.login}' is not a valid account login (1 to 40 letters, digits or '-')`,
    );
  }
  if (!isValidAccountId(input.account.id)) {
    throw unprocessable(`The account id must be a positive integer, got ${input.account.id}`);
  }
  // The domain only ever sees hashes; a plain secret here would be a bug that leaks it into events.
  if (!SHA256_HEX.test(input.secretHash)) throw unprocessable('The secret hash must be a hex SHA-256 digest');
}

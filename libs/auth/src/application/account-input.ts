import { unprocessable } from '@switchyard/kernel';
import { defaultAccountId, isValidAccountLogin, type AccountRef } from '../domain/account';

/** An account from user input: the login as given, the id as given or derived from the login. */
export function accountFrom(login: string, id?: number | null): AccountRef {
  if (!isValidAccountLogin(login)) {
    throw unprocessable(`'${login}' is not a valid account login (1 to 40 letters, digits or '-')`);
  }
  return { login, id: id ?? defaultAccountId(login) };
}

/** The code-host account (organisation or user) a credential is bound to. */
export interface AccountRef {
  id: number;
  login: string;
}

/** Same rule as the spec's `owner` path parameter: a credential for an account we could never route to is useless. */
const ACCOUNT_LOGIN = /^[a-zA-Z0-9-]{1,40}$/;

export const isValidAccountLogin = (login: string): boolean => ACCOUNT_LOGIN.test(login);

export const isValidAccountId = (id: number): boolean => Number.isSafeInteger(id) && id > 0;

/**
 * A stable positive 31-bit id for an account whose code-host id we were not told (FNV-1a of the
 * lower-cased login): the same login always maps to the same id, across restarts and machines, so
 * `account_scope.id` does not change under a client. Overridable wherever an account is given.
 */
export function defaultAccountId(login: string): number {
  let hash = 0x811c9dc5;
  for (const char of login.toLowerCase()) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff || 1;
}

import { bearerCredential } from '../../libs/auth/src/application/request-authorization';
import { hashSecret } from '../../libs/auth/src/secrets/secrets';

type Headers = Record<string, string | string[] | undefined>;

/**
 * The bare peers' stand-in for our auth guard, making the same header check: Bearer parsing, the
 * SHA-256 digest and a lookup in memory, then the account when the route names an owner.
 */
export function adminKeyCheck(adminKey: string, account: string) {
  const keyDigests = new Set([hashSecret(adminKey)]);
  return (headers: Headers, owner?: string): boolean => {
    const bearer = bearerCredential(headers.authorization);
    if (!bearer || !keyDigests.has(hashSecret(bearer))) return false;
    return owner === undefined || owner.toLowerCase() === account;
  };
}

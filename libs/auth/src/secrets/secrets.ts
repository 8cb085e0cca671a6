import { createHash, randomBytes } from 'node:crypto';
import type { ApplicationKeyScope } from '../domain/application-key/application-key.events';

/**
 * Credentials we issue: a recognisable prefix (so a leaked one is easy to spot and to route) and
 * 32 random bytes, base64url. The prefix also lets the resolver skip the code-host lookup for
 * anything that is plainly ours.
 */
export const APPLICATION_KEY_PREFIX = 'sy_';
export const SERVICE_TOKEN_PREFIX = 'syt_';
const SECRET_BYTES = 32;

const randomPart = (): string => randomBytes(SECRET_BYTES).toString('base64url');

export const generateApplicationKeySecret = (scope: ApplicationKeyScope): string =>
  `${APPLICATION_KEY_PREFIX}${scope}_${randomPart()}`;

export const generateServiceTokenSecret = (): string => `${SERVICE_TOKEN_PREFIX}${randomPart()}`;

export const isSwitchyardSecret = (token: string): boolean =>
  token.startsWith(APPLICATION_KEY_PREFIX) || token.startsWith(SERVICE_TOKEN_PREFIX);

/**
 * Only this digest is stored (in events and in the lookup table). Our secrets carry 256 random
 * bits, so no one can brute-force them from the digest and a slow password hash (bcrypt, argon2)
 * would only add its cost to every authenticated request; a fast hash also lets the lookup be one
 * indexed equality query. The operator-chosen SWITCHYARD_ADMIN_KEY is required to be long for the
 * same reason.
 */
export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

import { scryptSync } from 'node:crypto';

/**
 * The id of the key made from SWITCHYARD_ADMIN_KEY is derived from the secret, so every restart
 * (and every replica) addresses the same stream and the decider sees "already created": idempotent
 * without a lookup, race-free. Derived with scrypt rather than a plain hash because the id is
 * visible (activity-log actors) and an operator-chosen secret may be guessable: recovering it from
 * the id must cost a password-hash per guess.
 */
const SALT = 'switchyard:bootstrap-admin-key-id';

export function deriveBootstrapKeyId(secret: string): string {
  const bytes = scryptSync(secret, SALT, 16, { N: 1 << 14, r: 8, p: 1 });
  // RFC 9562 version 8 (custom) and the RFC variant, so it is a well-formed UUID.
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The key generated when the credential table is empty: one well-known stream, so two replicas starting together create one key, not two. */
export const GENERATED_BOOTSTRAP_KEY_ID = '00000000-0000-4000-8000-00000000b007';

import { hashSecret } from '../secrets/secrets';

/** Beyond this many credentials in use, the oldest remembered digest is dropped. */
const MAX_ENTRIES = 1000;

/**
 * The SHA-256 digests of bearers that named one of our credentials, so a key in use is not hashed
 * again on every request (the digest was the largest part of the guard's cost). A digest is a pure
 * function of its bearer: remembering it changes no answer, since revocation and expiry are still
 * decided on the credential's record (CachedCredentialLookup's TTL and invalidate()). Only bearers
 * that matched a credential are kept, so random bearers cannot fill it. It keeps the secrets of the
 * credentials in use in memory, which every request carrying them passes through anyway.
 */
export class KnownDigests {
  private readonly digests = new Map<string, string>();

  of(bearer: string): string {
    return this.digests.get(bearer) ?? hashSecret(bearer);
  }

  /** `bearer` matched a credential. */
  remember(bearer: string, digest: string): void {
    if (this.digests.has(bearer)) return;
    if (this.digests.size >= MAX_ENTRIES) {
      const oldest = this.digests.keys().next();
      if (!oldest.done) this.digests.delete(oldest.value);
    }
    this.digests.set(bearer, digest);
  }

  /** How many are remembered (for tests). */
  get size(): number {
    return this.digests.size;
  }
}

import { createHash } from 'node:crypto';

/** An upload's idempotency key: the same bytes for the same repository are the same upload. */
export const uploadIdOf = (repository: string, bytes: Uint8Array): string =>
  createHash('sha256').update(repository).update('\n').update(bytes).digest('hex').slice(0, 40);

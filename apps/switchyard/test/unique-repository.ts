import { randomBytes } from 'node:crypto';
import { TEST_ACCOUNT } from './harness';

// A per-load tag keeps names apart even if two spec files ever share one store.
const tag = randomBytes(3).toString('hex');
let taken = 0;

/**
 * An `owner/repo` that no other test touches, so each test owns its repository's state and log:
 * a test gives its own steps, and runs the same alone, in any order, or beside the others.
 */
export function uniqueRepository(label: string): string {
  taken += 1;
  return `${TEST_ACCOUNT}/${label}-${tag}-${taken}`;
}

import type { ExpectedRevision } from './types';

/** Whether a stream at `current` (-1n when missing) meets the caller's expectation. */
export const satisfiesExpectedRevision = (expected: ExpectedRevision, current: bigint): boolean => {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return current === -1n;
    case 'stream_exists':
      return current >= 0n;
    default:
      return current === expected;
  }
};

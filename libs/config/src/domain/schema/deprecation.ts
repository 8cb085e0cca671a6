import type { PathSegment } from '../source/configuration-path';

/**
 * A deprecated form found in a configuration (spec DeprecationInfo): what to change, the date
 * after which Mergify rejects it, and where it is (null when not tied to one field).
 */
export interface Deprecation {
  message: string;
  /** `YYYY-MM-DD`. */
  deadline: string;
  path: readonly PathSegment[] | null;
}

import type { PathSegment } from './configuration-path';
import type { SourcePosition } from './source-position';

/** Finds where a path of the validated value sits in the configuration text. */
export interface Locator {
  /** The position of the value at `path`, or of the nearest ancestor that exists in the text. */
  locate(path: readonly PathSegment[]): SourcePosition | null;
}

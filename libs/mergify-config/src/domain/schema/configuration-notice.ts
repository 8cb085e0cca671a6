import type { PathSegment } from '../source/configuration-path';
import type { SourcePosition } from '../source/source-position';

/** A problem or remark about one place of the configuration, located in the text. */
export interface ConfigurationNotice {
  path: readonly PathSegment[];
  /** `queue_rules[1].batch_size`. */
  pathText: string;
  /** Null for a whole-document problem the parser could not place. */
  position: SourcePosition | null;
  message: string;
}

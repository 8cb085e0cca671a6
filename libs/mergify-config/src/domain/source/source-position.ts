/** 1-based line and column of a place in the configuration text, as editors count them. */
export interface SourcePosition {
  line: number;
  column: number;
}

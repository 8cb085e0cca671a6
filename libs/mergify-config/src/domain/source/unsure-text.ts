/**
 * Block scalar headers with an indentation indicator (`|2`, `>-1`). A header starts a node, so it
 * follows a space, a tab or a line start; `#approved-reviews-by>1` in a condition is not one.
 */
const INDENTATION_INDICATOR = /(?:^|[ \t\uFEFF])[|>][-+]?[1-9]/m;
const DOCUMENT_MARKER = /---|\.\.\./;
/**
 * A marker indented at a line start (`^` of a multi-line pattern), unindented after a line break, or
 * a document end before any document (`yaml` then sees two documents, js-yaml one).
 */
const MISPLACED_DOCUMENT_MARKER = /(?:^|[\n\r\u2028\u2029]) +(?:---|\.\.\.)|\n(?:---|\.\.\.)|^\uFEFF?\.\.\./;

/**
 * Whether the text has something the two parsers are known to read differently, so `yaml` reads it
 * whole: tabs (indentation, separation), document markers anywhere but at the very start, indented
 * `---` and `...`, a `...` that opens the text, block scalar headers with an indentation indicator. Checked as separate patterns,
 * the rarest last: one pattern with all of them was most of the cost of a large file's check.
 */
export function hasUnsureText(text: string): boolean {
  return (
    text.includes('\t') ||
    INDENTATION_INDICATOR.test(text) ||
    (DOCUMENT_MARKER.test(text) && MISPLACED_DOCUMENT_MARKER.test(text))
  );
}
